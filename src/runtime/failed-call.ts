import { ProviderError, ToolseamError, waitWords } from '../core/errors.js';
import type { ModelRequest } from '../core/model.js';
import { toolSchemaRejection } from '../core/tool-rejection.js';
import { keepCutOffAnswer, keepStoppedAnswer } from './cut-off-answer.js';
import { leaveOutRefused } from './refused-tools.js';
import type { TurnContext } from './turn-context.js';
import type { TurnEnd } from './turn-loop.js';
import { rejectedToolOf, type TurnTools } from './turn-tools.js';

/**
 * What a failed model call leads to: the turn ends (stopped or failed, keeping any text it had `shown`,
 * marked as stopped or cut off; or rejected for a tool definition), or, when the refused tools were only asked for
 * mid-turn, they are left out and the model is called again.
 */
export function failedCall(
  ctx: TurnContext,
  request: ModelRequest,
  tools: TurnTools,
  error: unknown,
  shown: string,
): { readonly end: TurnEnd } | { readonly leftOut: true } {
  if (ctx.signal.aborted) {
    keepStoppedAnswer(ctx, shown);
    return { end: { status: 'stopped', message: 'The turn was stopped.' } };
  }
  const rejected = toolSchemaRejection(ctx.model, error, request.tools, (wire) => rejectedToolOf(ctx, wire));
  if (rejected) {
    const leftOut = leaveOutRefused(ctx, tools, rejected);
    ctx.logger.log({
      level: 'warn',
      scope: 'runtime',
      message: `${ctx.model.provider} rejected the definition of ${rejected.tools.map((t) => t.name).join(', ')}; ${leftOut ? 'left out for the rest of the turn' : 'not retrying'}`,
      fields: {
        provider: ctx.model.provider,
        tools: rejected.tools.map((t) => t.name),
        said: rejected.said ?? '',
      },
    });
    ctx.store.audit({
      kind: 'tool_schema_rejected',
      sessionId: ctx.sessionId,
      turnId: ctx.turnId,
      detail: {
        provider: rejected.provider,
        tools: rejected.tools.map((t) => t.name),
        said: rejected.said ?? '',
        leftOut,
      },
    });
    if (leftOut) return { leftOut: true };
    return { end: { status: 'rejected', message: rejected.message, errorCode: rejected.code } };
  }
  keepCutOffAnswer(ctx, shown);
  return { end: failedEnd(error) };
}

/** How a model call that failed for another reason ends the turn. */
function failedEnd(error: unknown): TurnEnd {
  if (error instanceof ProviderError) {
    // An HTTP failure's message already names the provider and the status ("x answered HTTP 500: …").
    const said =
      error.status === undefined
        ? `The call to the model provider (${error.provider}) failed: ${error.message}`
        : `The model provider ${error.message}`;
    // an error toolseam gave up retrying already says what to do, its wait included
    const wait =
      error.retryAfterMs === undefined || error.attempts !== undefined
        ? ''
        : ` It asks to wait ${waitWords(error.retryAfterMs)} before trying again.`;
    return {
      status: 'failed',
      message: `${said}${wait}`,
      errorCode: error.providerCode ?? error.code,
    };
  }
  const code = error instanceof ToolseamError ? error.code : 'model_call_failed';
  return {
    status: 'failed',
    message: `The model call failed: ${(error as Error).message ?? String(error)}`,
    errorCode: code,
  };
}
