import type { TurnEnvironment } from '../../turn/turn-environment.js';
import { type CallTarget, type TargetSource, toolContextOf } from '../call-target.js';
import type { RuntimeTool } from '../runtime-tool.js';
import { type RuntimeToolProvider, runtimeToolProvider } from '../runtime-tool-provider.js';

/** The tools the runtime answers itself (e.g. `subagent_run`), by name, served by their provider. */
export const runtimeTools: TargetSource = {
  targetOf(name, env) {
    const tool = env.runtimeTools.get(name);
    // the provider is made only for a name it serves: most calls are not the runtime's
    return tool === undefined ? undefined : runtimeTarget(providerOf(env), tool);
  },
};

function runtimeTarget(provider: RuntimeToolProvider, tool: RuntimeTool): CallTarget {
  const { name } = tool.definition;
  return {
    name,
    definition: tool.definition,
    offered: undefined,
    screened: true,
    keepsTaskMode: tool.keepsTaskMode === true,
    asks: false,
    // no provider can take it away while the turn runs
    withdrawn: () => undefined,
    ...(tool.preflight === undefined
      ? {}
      : { screen: (args, call) => provider.preflight(name, args, toolContextOf(call)) }),
    invoke: (args, call) => provider.invoke(name, args, toolContextOf(call)),
    ...(tool.resume === undefined ? {} : { resume: (call) => provider.resume(name, toolContextOf(call)) }),
  };
}

/** The turn's runtime tools, given what they need of the turn and nothing more. */
function providerOf(env: TurnEnvironment): RuntimeToolProvider {
  return runtimeToolProvider(env.runtimeTools, {
    turnId: env.turnId,
    emit: env.emit,
    store: env.store,
    offeredNames: env.surface.offered.map((t) => t.name),
    mode: env.gates.mode,
    inLeaf: env.leaf !== undefined,
  });
}
