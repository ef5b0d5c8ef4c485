import { isContextOverflow } from '../../core/context-overflow.js';
import { ProviderError, type ToolSchemaRejected, ToolseamError, waitWords } from '../../core/errors.js';
import type { ModelRequest } from '../../core/model.js';
import { toolSchemaRejection } from '../../core/tool-rejection.js';
import { answerContextOverflow } from '../context/context-overflow-answer.js';
import { askedMidTurn, leaveOutRefused, rejectedToolOf } from '../surface/refused-tools.js';
import type { TurnTools } from '../surface/turn-tools.js';
import { keepCutOffAnswer, keepStoppedAnswer } from './cut-off-answer.js';
import { endAfterResend, mayQuarantine, quarantineRejected } from './quarantine.js';
import type { TurnEnd } from './turn-end.js';
import type { TurnEnvironment } from './turn-environment.js';
import type { TurnState } from './turn-state.js';

/**
 * What a failed model call leads to: the turn ends (stopped or failed, keeping any text it had `shown`,
 * marked as stopped or cut off; or rejected for a tool definition), or the refused tools are left out
 * and the model is called again (see `rejectedTools`).
 */
export async function failedCall(
  env: TurnEnvironment,
  state: TurnState,
  request: ModelRequest,
  tools: TurnTools,
  error: unknown,
  shown: string,
): Promise<{ readonly end: TurnEnd } | { readonly leftOut: true }> {
  if (env.signal.aborted) {
    await keepStoppedAnswer(env, shown);
    return { end: { status: 'stopped', message: 'The turn was stopped.' } };
  }
  if (isContextOverflow(error)) return answerContextOverflow(env, state, request, error);
  const rejected = toolSchemaRejection(env.model, error, request.tools, (wire) => rejectedToolOf(env, wire));
  if (rejected) return rejectedTools(env, state, tools, rejected);
  await keepCutOffAnswer(env, shown);
  return { end: failedEnd(error) };
}

/**
 * A rejection the seam attributes to tools: tools the model asked for mid-turn are left out and the
 * turn goes on; tools the provider itself points at (none of them core) are quarantined for this
 * provider and model and the request is sent once more without them (once a turn); anything else ends
 * the turn with the provider's words.
 */
async function rejectedTools(
  env: TurnEnvironment,
  state: TurnState,
  tools: TurnTools,
  rejected: ToolSchemaRejected,
): Promise<{ readonly end: TurnEnd } | { readonly leftOut: true }> {
  const names = rejected.tools.map((t) => t.name);
  const quarantine = mayQuarantine(rejected);
  const midTurn = askedMidTurn(state, tools, rejected);
  const resend = !midTurn && quarantine && state.resentWithout === undefined;
  const leftOut = midTurn || resend;
  env.logger.log({
    // a quarantine is told to the person by its own event; the log line is for --verbose then
    level: quarantine ? 'info' : 'warn',
    scope: 'runtime',
    message: `${env.model.provider} rejected the definition of ${names.join(', ')}; ${leftOut ? 'left out for the rest of the turn' : 'not retrying'}${quarantine ? ', quarantined for this model' : ''}`,
    fields: { provider: env.model.provider, tools: names, said: rejected.said ?? '', quarantine },
  });
  await env.store.audit({
    kind: 'tool_schema_rejected',
    sessionId: env.sessionId,
    turnId: env.turnId,
    detail: {
      provider: rejected.provider,
      model: env.model.model,
      tools: names,
      said: rejected.said ?? '',
      leftOut,
      attributed: rejected.attributed,
      quarantined: quarantine,
    },
  });
  if (quarantine) await quarantineRejected(env, state, rejected, leftOut);
  if (midTurn) {
    leaveOutRefused(env, state, rejected, !quarantine);
    return { leftOut: true };
  }
  if (resend) {
    state.resentWithout = names;
    return { leftOut: true };
  }
  const message =
    state.resentWithout === undefined
      ? rejected.message
      : endAfterResend(rejected, state.resentWithout, quarantine);
  return { end: { status: 'rejected', message, errorCode: rejected.code } };
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
