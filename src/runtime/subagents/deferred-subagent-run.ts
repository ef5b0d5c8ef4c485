import type { RuntimeTool } from '../calls/runtime-tool.js';
import type { Runtime } from '../runtime.js';
import { SUBAGENT_RUN_DEFINITION } from './subagent-run-definition.js';

/**
 * `subagent_run` for `runtime`, as `enableSubagents` offers it, with the batch compiler and runner (a
 * dozen modules) imported on the tool's first preflight, run or resume: a session that never calls it
 * never loads them.
 */
export function deferredSubagentRun(runtime: Runtime): RuntimeTool {
  let loaded: Promise<RuntimeTool> | undefined;
  const real = (): Promise<RuntimeTool> => {
    loaded ??= import('./subagent-run-tool.js').then((m) => m.subagentRunTool(runtime));
    return loaded;
  };
  return {
    definition: SUBAGENT_RUN_DEFINITION,
    keepsTaskMode: true,
    async preflight(args, ctx) {
      return (await real()).preflight?.(args, ctx);
    },
    async run(args, ctx) {
      return (await real()).run(args, ctx);
    },
    async resume(ctx) {
      return (await real()).resume?.(ctx);
    },
  };
}
