import type { TurnEnvironment } from '../../turn/turn-environment.js';
import type { CallTarget, TargetSource } from '../call-target.js';
import type { RuntimeTool, RuntimeToolContext } from '../runtime-tool.js';

/** The tools the runtime answers itself (e.g. `subagent_run`), by name. */
export const runtimeTools: TargetSource = {
  targetOf(name, env) {
    const tool = env.runtimeTools.get(name);
    return tool === undefined ? undefined : runtimeTarget(tool);
  },
};

function runtimeTarget(tool: RuntimeTool): CallTarget {
  const { preflight, resume } = tool;
  return {
    name: tool.definition.name,
    definition: tool.definition,
    offered: undefined,
    screened: true,
    keepsTaskMode: tool.keepsTaskMode === true,
    asks: false,
    // no provider can take it away while the turn runs
    withdrawn: () => undefined,
    ...(preflight === undefined
      ? {}
      : {
          async screen(args, { env, id }) {
            const refused = await preflight.call(tool, args, runtimeToolContext(env, id));
            if (!refused?.isError) return undefined;
            return { ...refused, notRun: 'refused_by_tool', refusedBy: 'preflight' };
          },
        }),
    invoke: (args, { env, id }) => tool.run(args, runtimeToolContext(env, id)),
    ...(resume === undefined
      ? {}
      : { resume: ({ env, id }) => resume.call(tool, runtimeToolContext(env, id)) }),
  };
}

/** The narrow context a runtime tool's call gets from its turn. */
function runtimeToolContext(env: TurnEnvironment, callId: string): RuntimeToolContext {
  return {
    sessionId: env.sessionId,
    turnId: env.turnId,
    callId,
    signal: env.signal,
    emit: env.emit,
    store: env.store,
    offeredNames: env.surface.offered.map((t) => t.name),
    mode: env.gates.mode,
    inLeaf: env.leaf !== undefined,
  };
}
