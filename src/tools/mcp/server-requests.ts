import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/logger.js';

/** What a server asks for with each request toolseam does not take, and what the server is told. */
const UNSUPPORTED: Readonly<Record<string, { readonly asked: string; readonly answer: string }>> = {
  'sampling/createMessage': {
    asked: 'a completion from its model',
    answer: 'toolseam does not let an MCP server ask its model to write text (sampling is not supported)',
  },
  'elicitation/create': {
    asked: 'input from the user',
    answer: 'toolseam does not let an MCP server ask the user questions (elicitation is not supported)',
  },
  'roots/list': {
    asked: 'its roots',
    answer:
      'toolseam does not tell MCP servers which folders they may use (roots are not supported); give the server its folders in its own arguments or settings',
  },
};

/**
 * Answers every request a server sends that toolseam has no handler for (sampling, elicitation,
 * roots, …) with an error saying what is not supported, in place of the SDK's bare "Method not
 * found", which the tool that asked passes on to the model; the first of each kind is logged.
 */
export function refuseServerRequests(client: Client, server: string, logger: Logger): void {
  client.fallbackRequestHandler = async (request) => {
    const known = UNSUPPORTED[request.method];
    logger.once(`mcp:${server}:request:${request.method}`, {
      level: 'warn',
      scope: 'mcp',
      message: `MCP server "${server}" asked toolseam for ${known?.asked ?? `"${request.method}"`} (${request.method}), which toolseam does not support; the server was told so.`,
      fields: { server, method: request.method },
    });
    const answer = known?.answer ?? `toolseam does not answer ${request.method} requests from MCP servers`;
    // Not an McpError: its message would carry the code in front, and the server's SDK adds it again.
    throw Object.assign(new Error(answer), { code: ErrorCode.MethodNotFound });
  };
}
