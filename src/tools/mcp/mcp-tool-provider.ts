import type { Logger } from '../../core/logger.js';
import type { ToolProvider } from '../../core/tool.js';
import type { McpBackoff, McpTimeouts } from './mcp-config.js';

/** How an MCP provider behaves; every field has a default. */
export interface McpProviderOptions {
  readonly logger?: Logger;
  /** Host-wide timeouts; a server entry's own `timeouts` win over these. */
  readonly timeouts?: Partial<McpTimeouts>;
  readonly backoff?: Partial<McpBackoff>;
  /** Longest text a result may give the model (default 100,000 characters). */
  readonly maxResultChars?: number;
  /** Largest single message a server may send (default 10 MiB); a bigger answer fails only its own call. */
  readonly maxMessageBytes?: number;
  /** The app the server's tools belong to (default: the server's name). */
  readonly app?: string;
  /** Clock, for tests of the back-off. */
  readonly now?: () => number;
}

/** An MCP server as a tool provider, plus what the Tools page and a host want to know about it. */
export interface McpToolProvider extends ToolProvider {
  /** The server's name under `mcpServers`. */
  readonly server: string;
  /** What the last listing found wrong (malformed or duplicate tools) without failing the whole list. */
  loadProblems(): readonly string[];
  /** Whether the server is connected right now. */
  readonly connected: boolean;
  /**
   * Waits for the server's tools as long as its own start and list timeouts allow, where a listing
   * waits at most `waitMs` (for a caller that cannot go on without them); never rejects: a failure is
   * the next listing's to report.
   */
  whenListed(): Promise<void>;
  /** Stops the server; later calls are refused. */
  close(): Promise<void>;
}
