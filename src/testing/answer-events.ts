import { InputError, ProviderError } from '../core/errors.js';
import type { ModelEvent } from '../core/model.js';
import { type Answer, pieces } from './answer.js';

/** The error a call the caller stopped ends with. */
function stopped(provider: string, signal: AbortSignal | undefined): ProviderError {
  return new ProviderError({
    provider,
    status: undefined,
    message: `The call to ${provider} was stopped.`,
    providerCode: 'aborted',
    retryable: false,
    cause: signal?.reason,
  });
}

/** Resolves once `signal` fires (never without one: a stalled model waits for its caller). */
function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** Waits `ms`; a stop during the wait ends the call. */
async function pause(ms: number, provider: string, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const slept = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), ms);
  });
  const woke = await Promise.race([slept, untilStopped(signal).then(() => false)]);
  clearTimeout(timer);
  if (!woke) throw stopped(provider, signal);
}

/** A lost connection, retryable as an SDK adapter judges one. */
function connectionLost(provider: string, message: string): ProviderError {
  return new ProviderError({
    provider,
    status: undefined,
    message,
    providerCode: 'connection',
    retryable: true,
  });
}

/** 408, 409, 429 and 5xx pass; other statuses are the same however often the request is sent. */
function isPassing(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A scripted error answer, as an adapter reports one. */
function answeredError(
  provider: string,
  status: number,
  message: string,
  rawBody: string,
  retryAfterMs?: number,
): ProviderError {
  return new ProviderError({
    provider,
    status,
    message: `${provider} answered HTTP ${status}: ${message}`,
    retryable: isPassing(status),
    rawBody,
    retryAfterMs,
  });
}

/**
 * A resolved turn as a model adapter's events, in-process: text in pieces, then the tool calls and the
 * finish; failures are thrown as the `ProviderError` an SDK adapter would throw after its retries (none
 * are made here). A stream cut off before its end is a lost connection; `hold` waits for the caller's stop.
 */
export async function* answerEvents(
  answer: Answer,
  provider: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<ModelEvent> {
  await pause(answer.delayMs, provider, signal);
  switch (answer.kind) {
    case 'error': {
      const { status, retryAfter } = answer.error;
      const message = answer.error.message ?? `the scripted error ${status}`;
      const body = JSON.stringify({ error: { message } });
      throw answeredError(
        provider,
        status,
        message,
        body,
        retryAfter === undefined ? undefined : retryAfter * 1000,
      );
    }
    case 'raw':
      if (answer.raw.status < 400) {
        throw new InputError(
          `A "raw" answer with status ${answer.raw.status} is the bytes of a successful HTTP answer, which only a stand-in can send; in-process, script "text" or "toolCalls".`,
        );
      }
      throw answeredError(
        provider,
        answer.raw.status,
        answer.raw.body.trim() || '(no body)',
        answer.raw.body,
      );
    case 'drop':
      throw connectionLost(provider, `The connection to ${provider} was lost before it answered.`);
    case 'stream-error':
      for (const text of pieces(answer.text, 8)) yield { type: 'text-delta', text };
      throw new ProviderError({
        provider,
        status: undefined,
        message: `${provider} failed mid-answer: ${answer.message ?? 'the scripted stream error'}`,
        providerCode: answer.code,
        retryable: false,
      });
    case 'reply':
      break;
  }
  for (const text of pieces(answer.text, answer.chunkSize)) {
    if (signal?.aborted) throw stopped(provider, signal);
    yield { type: 'text-delta', text };
  }
  if (answer.cutOff === 'hold') {
    await untilStopped(signal);
    throw stopped(provider, signal);
  }
  if (answer.cutOff !== undefined) {
    throw connectionLost(provider, `The answer from ${provider} stopped before it was complete.`);
  }
  for (const call of answer.toolCalls) yield { type: 'tool-call', ...call };
  const { inputTokens, outputTokens } = answer.usage;
  yield {
    type: 'finish',
    stopReason: answer.stopReason,
    rawStopReason: answer.rawStopReason ?? answer.stopReason,
    usage: { inputTokens, outputTokens },
  };
}
