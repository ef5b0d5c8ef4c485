import type { RuntimeEvent } from '../core/events.js';
import { wholeText } from '../core/text-cut.js';
import type { ToolContext, ToolResult } from '../core/tool.js';
import { answerToolSchema, answerToolSearch } from '../retrieval/index.js';
import { redactSecrets } from '../tools/redact-secrets.js';
import { activateTool, activationAnswer } from './activate-tool.js';
import { boundResult } from './bound-result.js';
import { unusableReason, withdrawnReason } from './gates.js';
import type { PlannedCall } from './planned-call.js';
import { refusalResult } from './refusals.js';
import { isPassingStoreFailure, STORE_RETRY_MS, storeTrouble, writeWhenStoreAnswers } from './store-retry.js';
import { META_TOOL_NAMES } from './tool-surface.js';
import type { TurnContext } from './turn-context.js';

/** The text the model reads for a result: its content, then one `Hint:` line per hint. */
export function modelText(result: ToolResult): string {
  const hints = (result.hints ?? []).filter((h) => !result.content.includes(h));
  return [result.content, ...hints.map((h) => `Hint: ${h}`)].join('\n');
}

/**
 * Stores a call's outcome with its tool message and tells the host; the text is redacted and bounded. A
 * store that cannot take it for a while (a lock another process holds, a full disk) is tried again until
 * it answers (the host is told at once, and shown the result); past the turn's store window the outcome
 * is kept by the runtime, written when the store answers again, and the failure goes up.
 */
export async function settleCall(
  ctx: TurnContext,
  call: PlannedCall,
  result: ToolResult,
  status: 'done' | 'refused' | 'failed',
): Promise<ToolResult> {
  // Half of a character (a tool's text cut inside an emoji) is mended before it is stored and sent.
  const pagesBy = ctx.surface.byName.get(call.tool)?.definition.pagesBy;
  const content = wholeText(
    boundResult(redactSecrets(modelText(result), ctx.secrets), ctx.limits.resultChars, {
      tool: call.tool,
      pagesBy,
    }),
  );
  const outcome = {
    status,
    content,
    isError: result.isError,
    ...(result.notRun ? { notRun: result.notRun } : {}),
    ...(result.refusedBy ? { refusedBy: result.refusedBy } : {}),
  };
  const reason = result.reason === undefined ? {} : { reason: redactSecrets(result.reason, ctx.secrets) };
  const end: RuntimeEvent = {
    type: 'tool-call-end',
    callId: call.id,
    tool: call.tool,
    ...outcome,
    ...reason,
  };
  let told = false;
  try {
    await writeWhenStoreAnswers(
      () => ctx.store.recordToolResult(ctx.turnId, call.id, outcome),
      ctx.storeRetryMs ?? STORE_RETRY_MS,
      (trouble) => {
        ctx.emit({
          type: 'notice',
          message: `the session store cannot take the result of ${call.tool} yet (${storeTrouble(trouble)}); it is kept and written as soon as the store answers`,
        });
        ctx.emit(end);
        told = true;
      },
    );
  } catch (error) {
    if (isPassingStoreFailure(error)) ctx.unsaved?.push({ turnId: ctx.turnId, callId: call.id, outcome });
    throw error;
  }
  if (!told) ctx.emit(end);
  return { ...result, content };
}

/** The context a provider's invoke or preflight receives for this call. */
export function toolContext(ctx: TurnContext, call: PlannedCall): ToolContext {
  return {
    sessionId: ctx.sessionId,
    callId: call.id,
    signal: ctx.signal,
    turnState: ctx.turnState,
    workspace: ctx.workspace,
    secrets: ctx.secrets,
    resultChars: ctx.limits.resultChars,
    ...(ctx.leaf?.writable ? { writable: ctx.leaf.writable } : {}),
    ...(ctx.leaf?.offLimits ? { offLimits: ctx.leaf.offLimits } : {}),
  };
}

/**
 * Runs a call that passed its gates (and, when it asks, its approval): claims it in the store so it
 * runs exactly once, checks the tool was not withdrawn meanwhile, invokes it, settles the result.
 */
export async function runCall(ctx: TurnContext, call: PlannedCall): Promise<ToolResult> {
  if (ctx.signal.aborted)
    return settleCall(ctx, call, refusalResult(call.tool, { by: 'stopped', reason: '' }), 'refused');
  const meta = META_TOOL_NAMES.has(call.tool);
  const def = ctx.surface.byName.get(call.tool)?.definition;
  if (!meta && def) {
    const withdrawn = withdrawnReason(ctx.registry, def);
    if (withdrawn) return settleCall(ctx, call, refusalResult(call.tool, withdrawn), 'refused');
  }
  const current = await ctx.store.getToolCall(ctx.turnId, call.id);
  if (current?.status === 'pending') await ctx.store.approveToolCall(ctx.turnId, call.id);
  if (!(await ctx.store.claimToolCall(ctx.turnId, call.id))) {
    const again: ToolResult = {
      content: `Error: ${call.tool} was not run again: this call was already started once, and a call runs at most once.`,
      isError: true,
    };
    return settleCall(ctx, call, again, 'failed');
  }
  const args = call.args ?? {};
  ctx.emit({ type: 'tool-call-start', callId: call.id, tool: call.tool, arguments: args });
  let result: ToolResult;
  const own = ctx.runtimeTools.get(call.tool);
  if (meta) result = answerMeta(ctx, call);
  else if (own) result = await own.run(args, ctx, call.id);
  else {
    result = await ctx.registry.invoke(call.tool, args, toolContext(ctx, call));
    ctx.surface.retriever.markUsed(call.tool);
  }
  return settleCall(ctx, call, result, 'done');
}

function answerMeta(ctx: TurnContext, call: PlannedCall): ToolResult {
  const retriever = ctx.surface.retriever;
  // The model may name a tool by the wire name it saw it under: both answers know it by that too.
  const realName = (name: string): string | undefined => ctx.surface.wireToReal.get(name);
  if (call.tool === 'tool_search') return answerToolSearch(retriever, call.args ?? {}, { realName });
  const result = answerToolSchema(retriever, call.args ?? {}, {
    realName,
    unavailable: (name) => unusableReason(ctx.gates, ctx.surface, name),
  });
  const name = (result.data as { name?: unknown } | undefined)?.name;
  if (result.isError || typeof name !== 'string') return result;
  // refused by the provider earlier in this turn: it is not offered again, and the model hears so
  if (ctx.refused.has(name)) {
    return {
      content: `The model provider refused the definition of \`${name}\` earlier in this turn, so it cannot be offered again in this turn. Do the rest without it.`,
      isError: true,
    };
  }
  // The model asked for this tool's inputs: offer its full schema from the next model call on.
  return activationAnswer(ctx, name, result, activateTool(ctx, name));
}
