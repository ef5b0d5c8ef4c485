import type { JsonObject } from '../../core/json.js';
import { headOf } from '../../core/text-cut.js';
import { BatchParked } from '../batches/batch-parked.js';
import { batchResult } from '../batches/batch-result.js';
import { contractJson } from '../batches/leaf-contract.js';
import type { RuntimeTool, RuntimeToolContext } from '../calls/runtime-tool.js';
import type { Runtime } from '../runtime.js';
import { batchRefusal } from './batch-refusal.js';
import { compileBatch } from './compile-batch.js';
import type { CompiledBatch } from './compiled-batch.js';
import { leafGrants } from './leaf-grants.js';
import { resumeBatch } from './resume-batch.js';
import { runBatch } from './run-batch.js';
import { compileOptionsFor, resolveSubagentOptions, type SubagentOptions } from './subagent-options.js';
import { SUBAGENT_RUN_DEFINITION } from './subagent-run-definition.js';

/**
 * `subagent_run` for `runtime`: its preflight is the batch compiler (a batch that does not compile is
 * refused with every finding before anything starts, and the call asks nobody); running it starts
 * each leaf as a child session of the same runtime and answers with every leaf's result.
 */
export function subagentRunTool(runtime: Runtime, options: SubagentOptions = {}): RuntimeTool {
  const settings = resolveSubagentOptions(runtime, options);
  const compile = (args: JsonObject, ctx: RuntimeToolContext): CompiledBatch =>
    compileBatch(args, compileOptionsFor(runtime, settings, ctx.inLeaf));
  return {
    definition: SUBAGENT_RUN_DEFINITION,
    // Every leaf of a plan-mode turn's batch runs in plan mode too.
    keepsTaskMode: true,
    preflight(args, ctx) {
      const compiled = compile(args, ctx);
      return compiled.ok ? undefined : batchRefusal(compiled);
    },
    async run(args, ctx) {
      const compiled = compile(args, ctx);
      if (!compiled.ok) return batchRefusal(compiled);
      const batch = await ctx.store.createBatch({
        parentSessionId: ctx.sessionId,
        turnId: ctx.turnId,
        callId: ctx.callId,
        // Never half an emoji: SQLite would store the lone half as a replacement character.
        title: headOf(compiled.leaves.map((l) => l.title).join(' · '), 200),
        leaves: compiled.leaves.map((l) => ({
          title: l.title,
          contract: contractJson(l.contract),
          ...(l.agent !== undefined ? { agent: l.agent } : {}),
        })),
      });
      // Hosted mode: the leaves run as jobs on any worker while the turn is parked.
      if (runtime.options.hosted?.parkBatches === true) throw new BatchParked(batch.id);
      const env = {
        runtime,
        batchId: batch.id,
        parentSessionId: ctx.sessionId,
        grants: leafGrants(ctx.offeredNames),
        parentMode: ctx.mode,
        timeoutMs: settings.leafTimeoutMs,
        signal: ctx.signal,
        emit: ctx.emit,
      };
      const work = batch.leaves.map((leaf) => ({ leaf, start: { kind: 'fresh' as const } }));
      const finished = await runBatch(env, work, settings.concurrency);
      const warnings = compiled.findings.filter((f) => f.severity === 'warning');
      return batchResult(finished, warnings, runtime.limits.resultChars);
    },
    async resume(ctx) {
      const batch = (await ctx.store.listBatches({ parentSessionId: ctx.sessionId })).find(
        (b) => b.turnId === ctx.turnId && b.callId === ctx.callId,
      );
      if (!batch) return undefined;
      // Finished before the process died (or while the turn was parked on it), which then never gave
      // the call its result: give it now, with the warnings its arguments compile to, as a run would.
      if (batch.status !== 'running') {
        const args = (await runtime.options.store.getToolCall(ctx.turnId, ctx.callId))?.arguments;
        const warnings = args === undefined ? [] : compile(args, ctx).findings;
        return batchResult(
          batch,
          warnings.filter((f) => f.severity === 'warning'),
          runtime.limits.resultChars,
        );
      }
      // Its leaves run (or are sent again) as jobs: the turn parks again until the last one ends.
      if (runtime.options.hosted?.parkBatches === true) throw new BatchParked(batch.id);
      const resumed = await resumeBatch(runtime, batch.id, {
        ...options,
        onEvent: ctx.emit,
        signal: ctx.signal,
      });
      return resumed.result;
    },
  };
}
