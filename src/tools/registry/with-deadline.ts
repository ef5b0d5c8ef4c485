/** Raised by {@link withDeadline} when the work did not finish in time. */
export class DeadlineExceeded extends Error {
  constructor(readonly ms: number) {
    super(`did not finish within ${formatMs(ms)}`);
    this.name = 'DeadlineExceeded';
  }
}

/**
 * Races `work` against a timer of `ms` milliseconds; on timeout aborts the signal handed to `work`
 * and rejects with {@link DeadlineExceeded}. An outer `signal` aborts the same way. `keepAlive`: the
 * timer holds the process open, for work that may hold nothing open itself (it would otherwise end
 * the process with the work neither done nor timed out).
 */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
  keepAlive = false,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DeadlineExceeded(ms);
      controller.abort(error);
      reject(error);
    }, ms);
    if (!keepAlive) timer.unref?.();
  });
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  const onOuterAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (signal?.aborted) controller.abort(signal.reason);
  // The losers of the race must not surface as unhandled rejections.
  expired.catch(() => {});
  aborted.catch(() => {});
  try {
    return await Promise.race([work(controller.signal), expired, aborted]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onOuterAbort);
  }
}

/** `1500` → `1.5 s`, `250` → `250 ms`. */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${Math.round(ms)} ms`;
}
