import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../core/tool.js';
import { errorText } from '../registry/failure-ledger.js';
import { formatMs } from '../registry/with-deadline.js';
import { answeredByServer, answerWords, sdkFailure, serverWords } from './error-answers.js';
import { credentialsRefused, type HttpLoss, type McpConnection } from './mcp-connection.js';
import { oversizedOf, oversizedResult } from './oversized-answer.js';

/** What a call that failed on the way to (or inside) an MCP server tells the model: run or not, and why. */
export function callFailure(
  connection: McpConnection,
  callMs: number,
  name: string,
  error: unknown,
  signal: AbortSignal,
  loss?: HttpLoss,
): ToolResult {
  const server = connection.target.name;
  if (signal.aborted) return failure(`Error: ${name} was stopped before MCP server "${server}" answered.`);
  if (sdkFailure(error, ErrorCode.RequestTimeout)) {
    return failure(
      `Error: MCP server "${server}" did not answer the call to ${name} within ${formatMs(callMs)}, so toolseam stopped waiting. ` +
        'The server may still finish the work; check before calling it again.',
    );
  }
  const status = credentialsRefused(error);
  if (status !== undefined) {
    const why =
      status === 401
        ? 'did not accept the credentials toolseam sent'
        : 'does not let the credentials toolseam sent do this';
    return {
      ...refusal(
        `MCP server "${server}" turned the call to ${name} down with HTTP ${status}: it ${why}, so nothing was run. ` +
          'The headers configured for this server (its token) have to be fixed by the user.',
      ),
      data: { code: 'mcp_http_refused', server, tool: name, status },
    };
  }
  if (loss === 'refused') {
    return refusal(
      `MCP server "${server}" refused the connection, so ${name} was not run; toolseam connects again on a later use.`,
    );
  }
  if (loss !== undefined) {
    return failure(
      `Error: MCP server "${server}" could not be reached while calling ${name} (${connection.hideSecrets(errorText(error))}). ` +
        'Whether the call did anything is unknown; check before calling it again. toolseam connects again on a later use.',
    );
  }
  if (connection.isClosed) {
    return failure(`Error: ${name} was stopped because toolseam shut MCP server "${server}" down.`);
  }
  if (sdkFailure(error, ErrorCode.ConnectionClosed)) {
    const words = connection.lastWords();
    const again = connection.target.kind === 'http' ? 'connects to it again' : 'starts the server again';
    return failure(
      `Error: MCP server "${server}" stopped while running ${name}${words ? ` (${words})` : ''}. ` +
        `Whether the call did anything is unknown; toolseam ${again} on the next call.`,
    );
  }
  const oversized = oversizedOf(error);
  if (oversized !== undefined) return oversizedResult(server, name, oversized);
  const said = error instanceof McpError ? connection.hideSecrets(serverWords(error)) : '';
  if (error instanceof McpError && NOT_RUN_CODES.has(error.code)) {
    return refusal(`MCP server "${server}" refused the call to ${name}: ${said}`);
  }
  if (answeredByServer(error)) {
    return failure(
      `Error: MCP server "${server}" answered the call to ${name} with an error: ${connection.hideSecrets(answerWords(error))}. ` +
        'Whether the call did anything is unknown; check before calling it again.',
    );
  }
  if (error instanceof McpError) {
    return failure(
      `Error: MCP server "${server}" failed while handling the call to ${name}: ${said}. ` +
        'Whether the call did anything is unknown; check before calling it again.',
    );
  }
  return failure(
    `Error: the call to ${name} could not be completed: ${connection.hideSecrets(errorText(error))}`,
  );
}

/** The result with `Error: ` in front of its text. */
export function withErrorPrefix(result: ToolResult): ToolResult {
  return { ...result, content: `Error: ${result.content}` };
}

/** True when `error` answers tools/list of a server that never said it had tools (no `tools` capability). */
export function offersNoTools(client: Client, error: unknown): boolean {
  const declared = client.getServerCapabilities()?.tools !== undefined;
  return !declared && error instanceof McpError && error.code === ErrorCode.MethodNotFound;
}

/**
 * JSON-RPC errors that mean the server turned the request down before its tool ran (unreadable or
 * invalid request, unknown method, invalid arguments or tool name). Any other error, such as an
 * internal error thrown from a handler, may come after the tool did part of its work.
 */
const NOT_RUN_CODES: ReadonlySet<number> = new Set([
  ErrorCode.ParseError,
  ErrorCode.InvalidRequest,
  ErrorCode.MethodNotFound,
  ErrorCode.InvalidParams,
]);

/** A call refused before it ran (nothing happened). */
export function refusal(reason: string): ToolResult {
  return { content: `Error: ${reason}`, isError: true, notRun: 'refused_by_tool' };
}

function failure(content: string): ToolResult {
  return { content, isError: true };
}

/** A call whose turn was stopped while toolseam still waited for the server (`what`: "to start"): nothing was sent. */
export function stoppedBeforeSent(name: string, server: string, what: string): ToolResult {
  return {
    content: `Error: ${name} was not run: the turn was stopped while toolseam waited for MCP server "${server}" ${what}.`,
    isError: true,
    notRun: 'stopped',
  };
}

/** A call to a tool the server does not list. */
export function notHere(name: string, server: string): ToolResult {
  return refusal(
    `MCP server "${server}" does not offer a tool named ${name} (any more), so nothing was run.`,
  );
}
