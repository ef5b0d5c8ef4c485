import type { JsonObject } from '../../core/json.js';
import type { ToolContext, ToolDefinition, ToolProvider, ToolResult } from '../../core/tool.js';
import { preflightRefusal } from './refusals.js';
import type { RuntimeTool, RuntimeToolContext } from './runtime-tool.js';

/** What a turn gives its runtime tools beside each call's own session, id and stop. */
export type RuntimeToolScope = Omit<RuntimeToolContext, 'sessionId' | 'callId' | 'signal'>;

/** The runtime's own tools as a tool provider: served like every other, and able to resume a call. */
export interface RuntimeToolProvider extends ToolProvider {
  /** The tool's own refusal, marked as its preflight's; undefined refuses nothing. */
  preflight(name: string, args: JsonObject, ctx: ToolContext): Promise<ToolResult | undefined>;
  /** Takes over call `ctx.callId` of `name` after its process died (see `RuntimeTool.resume`). */
  resume(name: string, ctx: ToolContext): Promise<ToolResult | undefined>;
}

/**
 * Serves `tools` (e.g. `subagent_run`) for one turn, each call given `scope` and the call's own session,
 * id and stop: what the tool needs, never the turn itself. A runtime tool has no time limit of its own
 * and must not be cut (its work may wait for a person); the turn's stop ends it.
 */
export function runtimeToolProvider(
  tools: ReadonlyMap<string, RuntimeTool>,
  scope: RuntimeToolScope,
): RuntimeToolProvider {
  const contextOf = (ctx: ToolContext): RuntimeToolContext => ({
    ...scope,
    sessionId: ctx.sessionId,
    callId: ctx.callId,
    signal: ctx.signal,
    ...(ctx.resultChars === undefined ? {} : { resultChars: ctx.resultChars }),
  });
  return {
    name: 'runtime',
    app: 'toolseam',
    own: true,
    async listTools(): Promise<readonly ToolDefinition[]> {
      return [...tools.values()].map((tool) => tool.definition);
    },
    async invoke(name, args, ctx) {
      const tool = tools.get(name);
      if (tool === undefined) return notOurs(name, tools);
      return tool.run(args, contextOf(ctx));
    },
    async preflight(name, args, ctx) {
      return preflightRefusal(await tools.get(name)?.preflight?.(args, contextOf(ctx)));
    },
    timeLimitMs: () => null,
    async resume(name, ctx) {
      return tools.get(name)?.resume?.(contextOf(ctx));
    },
  };
}

/** The answer to a call of a name none of the runtime's tools has. */
function notOurs(name: string, tools: ReadonlyMap<string, RuntimeTool>): ToolResult {
  const served = [...tools.keys()].join(', ') || 'no tools';
  return {
    content: `Error: ${name} is not one of the runtime's own tools; it serves ${served}.`,
    isError: true,
    notRun: 'refused_by_tool',
    data: { code: 'unknown_tool', tool: name },
  };
}
