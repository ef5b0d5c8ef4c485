import { ToolseamError } from '../../core/errors.js';

/** What went wrong with an MCP server. */
export type McpFailureKind =
  | 'start_failed'
  | 'start_timeout'
  | 'down'
  | 'list_failed'
  | 'list_timeout'
  | 'not_ready'
  | 'bad_listing'
  | 'closed';

/** An MCP server could not be started, reached or listed; only that server's tools are affected. */
export class McpServerError extends ToolseamError {
  constructor(
    /** The server's name under `mcpServers`. */
    readonly server: string,
    readonly kind: McpFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`mcp_${kind}`, message, options);
  }
}
