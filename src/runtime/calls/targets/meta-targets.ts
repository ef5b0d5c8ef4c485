import type { JsonObject } from '../../../core/json.js';
import type { ToolDefinition, ToolProvider, ToolResult } from '../../../core/tool.js';
import { answerToolSchema, answerToolSearch, META_TOOLS } from '../../../retrieval/index.js';
import { activateTool, activationAnswer } from '../../surface/activate-tool.js';
import type { TurnEnvironment } from '../../turn/turn-environment.js';
import type { TurnState } from '../../turn/turn-state.js';
import { type CallTarget, type TargetSource, toolContextOf } from '../call-target.js';
import { unusableReason } from '../gates/unusable-reason.js';

const META_BY_NAME: ReadonlyMap<string, ToolDefinition> = new Map(META_TOOLS.map((t) => [t.name, t]));

/** `tool_search` and `tool_schema`: answered from the turn's surface, screened only by the agent's tool list. */
export const metaTools: TargetSource = {
  targetOf(name) {
    const definition = META_BY_NAME.get(name);
    return definition === undefined ? undefined : metaTarget(definition);
  },
};

/** The meta-tools of one turn as a tool provider: they read its surface and activate what the model asks for. */
export function metaToolProvider(env: TurnEnvironment, state: TurnState): ToolProvider {
  return {
    name: 'meta',
    app: 'toolseam',
    own: true,
    listTools: async () => META_TOOLS,
    async invoke(name, args) {
      if (META_BY_NAME.has(name)) return answerMeta(env, state, name, args);
      return {
        content: `Error: ${name} is not a meta-tool.`,
        isError: true,
        data: { code: 'unknown_tool', tool: name },
      };
    },
  };
}

function metaTarget(definition: ToolDefinition): CallTarget {
  const { name } = definition;
  return {
    name,
    definition,
    offered: undefined,
    screened: false,
    keepsTaskMode: false,
    asks: false,
    withdrawn: () => undefined,
    invoke: (args, call) => metaToolProvider(call.env, call.state).invoke(name, args, toolContextOf(call)),
  };
}

async function answerMeta(
  env: TurnEnvironment,
  state: TurnState,
  tool: string,
  args: JsonObject,
): Promise<ToolResult> {
  const retriever = env.surface.retriever;
  // The model may name a tool by the wire name it saw it under: both answers know it by that too.
  const realName = (name: string): string | undefined => env.surface.wireToReal.get(name);
  if (tool === 'tool_search') return answerToolSearch(retriever, args, { realName });
  const result = answerToolSchema(retriever, args, {
    realName,
    unavailable: (name) => unusableReason(env.gates, env.surface, name),
  });
  const name = (result.data as { name?: unknown } | undefined)?.name;
  if (result.isError || typeof name !== 'string') return result;
  // refused by the provider earlier in this turn: it is not offered again, and the model hears so
  if (state.refused.has(name)) {
    return {
      content: `The model provider refused the definition of \`${name}\` earlier in this turn, so it cannot be offered again in this turn. Do the rest without it.`,
      isError: true,
    };
  }
  // The model asked for this tool's inputs: offer its full schema from the next model call on.
  return activationAnswer(env, name, result, await activateTool(env, state, name));
}
