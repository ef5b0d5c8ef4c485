import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject } from '../core/json.js';
import type { ToolDefinition, ToolResult } from '../core/tool.js';
import type { CallSession, OutsideAnswer } from '../runtime/calls/call-session.js';
import type { Runtime } from '../runtime/runtime.js';
import { type ApproveCommand, needsApprovalResult, plainApproveCommand } from './approval-words.js';
import { canElicit, elicitingAsker } from './elicit-approval.js';
import { listedTool } from './listed-tool.js';

/** What each connection's server is made with. */
export interface ToolServerOptions {
  /** Which tools are served (see `servedBy`). */
  readonly serves: (tool: ToolDefinition) => boolean;
  /** toolseam's version, told to clients at initialize. */
  readonly version: string;
  /** The terminal command that answers a stored question (default `toolseam approve ID yes`). */
  readonly approveCommand?: ApproveCommand;
  /** How long a person has to answer a question put through the client (default 5 minutes). */
  readonly questionMs?: number;
}

/** One client connection's MCP server, and the call session that records its calls. */
export interface ToolServer {
  readonly server: Server;
  /** The call session, once the client's first list or call opened it. */
  session(): Promise<CallSession>;
  /** Ends the call session (its turn); the transport is the caller's to close. */
  close(): Promise<void>;
}

/**
 * An MCP server for one client connection on the SDK's `Server`: `tools/list` shows the served tools as
 * the seam offers them, `tools/call` takes each call through the runtime's one call path in a session
 * opened for this connection (titled after the client), and a question is put through the client's
 * elicitation when it has it, else stored for `toolseam approve`.
 */
export function toolServer(runtime: Runtime, options: ToolServerOptions): ToolServer {
  const server = new Server(
    { name: 'toolseam', version: options.version },
    {
      capabilities: { tools: { listChanged: true } },
      instructions:
        "toolseam's tools. A call that needs a person's approval is asked through this client when it can; otherwise its error says how the person approves it, and the same call again then runs once.",
    },
  );
  const command = options.approveCommand ?? plainApproveCommand;
  const asker = elicitingAsker(server, options.questionMs ?? 300_000);
  let opening: Promise<CallSession> | undefined;
  const session = (): Promise<CallSession> => {
    opening ??= (() => {
      const client = server.getClientVersion();
      const who = client ? `${client.name} ${client.version}` : 'an MCP client';
      return runtime.openCallSession({
        title: `MCP: ${who}`,
        opening: `Calls from ${who} over MCP (toolseam mcp-serve).`,
        serves: options.serves,
      });
    })();
    return opening;
  };

  // The stamp the client's last listing was made at; undefined once it was told the list changed.
  let listedAt: string | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const calls = await session();
    listedAt = calls.toolsStamp;
    return { tools: (await calls.tools()).map(listedTool) };
  });
  /** Tells the client, once, that the tools changed since it listed them (it hears it after a call). */
  const tellChanges = (calls: CallSession): void => {
    if (listedAt === undefined || calls.toolsStamp === listedAt) return;
    listedAt = undefined;
    server.sendToolListChanged().catch(() => undefined);
  };
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const calls = await session();
    const answer = await calls.call(name, (args ?? {}) as JsonObject, canElicit(server) ? asker : undefined);
    tellChanges(calls);
    return mcpResult(answerResult(answer, name, command));
  });

  return {
    server,
    session,
    async close() {
      if (opening) await (await opening).close();
    },
  };
}

/** The tool result an answer stands for: the call's own, or the error saying how to approve it. */
function answerResult(answer: OutsideAnswer, name: string, command: ApproveCommand): ToolResult {
  if (answer.kind === 'result') return answer.result;
  return needsApprovalResult(answer.request, command, name, answer.kind === 'waiting');
}

function mcpResult(result: ToolResult): CallToolResult {
  return { content: [{ type: 'text', text: result.content }], isError: result.isError };
}
