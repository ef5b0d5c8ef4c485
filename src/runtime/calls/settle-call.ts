import type { RuntimeEvent } from '../../core/events.js';
import { wholeText } from '../../core/text-cut.js';
import type { ToolResult } from '../../core/tool.js';
import { redactSecrets } from '../../tools/redact-secrets.js';
import { resultByReference } from '../context/result-by-reference.js';
import {
  isPassingStoreFailure,
  STORE_RETRY_MS,
  storeTrouble,
  writeWhenStoreAnswers,
} from '../turn/store-retry.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import { boundResult } from './bound-result.js';
import type { PlannedCall } from './planned-call.js';

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
  env: TurnEnvironment,
  call: PlannedCall,
  result: ToolResult,
  status: 'done' | 'refused' | 'failed',
): Promise<ToolResult> {
  // Half of a character (a tool's text cut inside an emoji) is mended before it is stored and sent.
  const pagesBy = call.target.offered?.definition.pagesBy;
  const text = redactSecrets(modelText(result), env.secrets);
  const content = wholeText(
    // a tool that pages by its own argument is asked again; any other long result is kept whole
    (pagesBy === undefined ? await resultByReference(env, call, text, env.limits.resultChars) : undefined) ??
      boundResult(text, env.limits.resultChars, { tool: call.tool, pagesBy }),
  );
  const outcome = {
    status,
    content,
    isError: result.isError,
    ...(result.notRun ? { notRun: result.notRun } : {}),
    ...(result.refusedBy ? { refusedBy: result.refusedBy } : {}),
  };
  const reason = result.reason === undefined ? {} : { reason: redactSecrets(result.reason, env.secrets) };
  const end: RuntimeEvent = {
    type: 'tool-call-end',
    callId: call.id,
    tool: call.tool,
    ...outcome,
    ...reason,
  };
  let told = false;
  try {
    const { message } = await writeWhenStoreAnswers(
      () => env.store.recordToolResult(env.turnId, call.id, outcome),
      env.storeRetryMs ?? STORE_RETRY_MS,
      (trouble) => {
        env.emit({
          type: 'notice',
          message: `the session store cannot take the result of ${call.tool} yet (${storeTrouble(trouble)}); it is kept and written as soon as the store answers`,
        });
        env.emit(end);
        told = true;
      },
    );
    env.history.wrote(message);
  } catch (error) {
    if (isPassingStoreFailure(error)) env.keepUnsaved?.({ turnId: env.turnId, callId: call.id, outcome });
    throw error;
  }
  if (!told) env.emit(end);
  return { ...result, content };
}
