import type { ToolResult } from '../../core/tool.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import { requestTools, toolLimit } from './request-tools.js';
import { turnToolsOf } from './select-turn-tools.js';

/** What offering a tool the model asked for did to the next request's tools. */
export type Activation =
  | { readonly offered: true; readonly displaced: readonly string[] }
  | { readonly offered: false; readonly limit: number };

/**
 * Offers `name` (a real name) with its full schema from the next model call on, as the newest tool
 * asked for. When the request then has too many tools, others make room (see `requestTools`):
 * `displaced` holds their wire names. When even the tools offered every turn fill the request, the
 * tool is not offered.
 */
export async function activateTool(
  env: TurnEnvironment,
  state: TurnState,
  name: string,
): Promise<Activation> {
  const turn = await turnToolsOf(env, state);
  const before = requestTools(env, state, turn).carried;
  state.activated.delete(name);
  state.activated.add(name);
  const after = requestTools(env, state, turn).carried;
  const limit = toolLimit(env.model);
  if (!after.has(name)) {
    state.activated.delete(name);
    return { offered: false, limit };
  }
  const displaced = [...before]
    .filter((n) => !after.has(n))
    .map((n) => env.surface.byName.get(n)?.wireName ?? n);
  if (displaced.length > 0) {
    env.logger.log({
      level: 'info',
      scope: 'runtime',
      message: `offering ${name} left ${displaced.join(', ')} out of the next request (at most ${limit} tools)`,
      fields: { provider: env.model.provider, tool: name, displaced, limit },
    });
  }
  return { offered: true, displaced };
}

/** The `tool_schema` answer for `name` once `activateTool` has run: what the model reads about the limit. */
export function activationAnswer(
  env: TurnEnvironment,
  name: string,
  answer: ToolResult,
  activation: Activation,
): ToolResult {
  const wire = env.surface.byName.get(name)?.wireName ?? name;
  const provider = env.model.provider;
  if (!activation.offered) {
    return {
      content:
        `\`${wire}\` was not added to your tools: ${provider} takes at most ${activation.limit} tools in one request, ` +
        'and the tools offered every turn already fill them. Do this part without it, and tell the user what could not be done.',
      isError: true,
      data: { name, offered: false, reason: 'tool_limit', limit: activation.limit },
    };
  }
  if (activation.displaced.length === 0) return answer;
  const several = activation.displaced.length > 1;
  const names = activation.displaced.map((n) => `\`${n}\``).join(', ');
  const note =
    `Note: ${provider} takes at most ${toolLimit(env.model)} tools in one request, so to offer \`${wire}\` ` +
    `${several ? 'these tools are' : 'this tool is'} no longer offered with ${several ? 'their full schemas' : 'its full schema'}: ${names}. ` +
    `To use ${several ? 'one of them' : 'it'} again, call tool_schema with its name first.`;
  return { ...answer, content: `${answer.content}\n\n${note}` };
}
