import { randomUUID } from 'node:crypto';
import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../../core/json.js';
import type { ToolResult } from '../../core/tool.js';

/** How large an answer toolseam dropped was: the limit it passed, and its whole size when that is known. */
export interface OversizedAnswer {
  readonly limitBytes: number;
  /** The whole answer's size; left out when the answer was cut off as soon as it passed the limit. */
  readonly bytes?: number;
}

/** The key in an error's `data` that says toolseam wrote the error in place of a server's answer. */
const MARK = 'toolseamOversizedAnswer';
/**
 * Its value: made up once per process and never sent to a server, so a server that answers with an
 * error carrying the same key cannot pass its error off as toolseam's own.
 */
const TOKEN = randomUUID();

/**
 * The JSON-RPC error toolseam hands the client in place of a server's answer to request `id` that is too
 * large to take, so that one request fails and the connection goes on.
 */
export function oversizedAnswer(id: string | number, size: OversizedAnswer): JSONRPCMessage {
  const message = `the server's answer (${sizeWords(size)}) was larger than toolseam takes in one message, so it was dropped`;
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ErrorCode.InternalError, message, data: { [MARK]: TOKEN, ...size } },
  };
}

/** The size of a dropped answer when `error` is one {@link oversizedAnswer} stood in with, else undefined. */
export function oversizedOf(error: unknown): OversizedAnswer | undefined {
  if (!(error instanceof McpError) || !isPlainObject(error.data) || error.data[MARK] !== TOKEN)
    return undefined;
  const { limitBytes, bytes } = error.data;
  if (typeof limitBytes !== 'number') return undefined;
  return typeof bytes === 'number' ? { limitBytes, bytes } : { limitBytes };
}

/** What the model reads for a call whose answer was too large to take: what happened, how big, what to do. */
export function oversizedResult(server: string, tool: string, size: OversizedAnswer): ToolResult {
  const limit = size.limitBytes.toLocaleString('en-US');
  const how =
    size.bytes === undefined
      ? `with more than ${limit} bytes, the most toolseam takes in one message`
      : `with ${size.bytes.toLocaleString('en-US')} bytes, more than the ${limit} bytes toolseam takes in one message`;
  return {
    content:
      `Error: MCP server "${server}" answered ${tool} ${how}, so the answer was dropped; the server is still connected. ` +
      'The tool did run, so anything it changes has changed. To get what you need, call it again asking for less: ' +
      'a narrower query, a smaller page, range or limit.',
    isError: true,
    data: { code: 'mcp_answer_too_large', server, tool, ...size },
  };
}

function sizeWords(size: OversizedAnswer): string {
  const limit = size.limitBytes.toLocaleString('en-US');
  return size.bytes === undefined
    ? `more than ${limit} bytes`
    : `${size.bytes.toLocaleString('en-US')} bytes, over the ${limit} bytes limit`;
}
