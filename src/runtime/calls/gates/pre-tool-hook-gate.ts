import type { Gate } from './gate.js';
import { runPreToolHooks } from './pre-tool-hooks.js';

/** The configured pre-tool hooks may block a call; a hook still running when the turn stops is killed. */
export const preToolHookGate: Gate = async (call, env) => {
  const blocked = await runPreToolHooks(
    env.gates.hooks,
    { tool: call.tool, arguments: call.args ?? {}, sessionId: env.sessionId },
    env.signal,
  );
  if (env.signal.aborted) return { by: 'stopped', reason: '' };
  return blocked === undefined ? undefined : { by: 'hook', reason: blocked };
};
