/** What {@link untilStopped} saw: the work's own outcome, or that it was still running after the grace. */
export type StopOutcome<T> =
  | { readonly kind: 'settled'; readonly value: T }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'abandoned' };

/**
 * Waits for `work`, or — once `signal` aborts — for at most `graceMs` more: a tool that heeds its
 * signal settles within the grace and is heard; one that ignores it no longer holds its turn. The
 * work itself is not stopped (nothing can stop a promise); its late outcome is dropped.
 */
export function untilStopped<T>(
  work: Promise<T>,
  signal: AbortSignal,
  graceMs: number,
): Promise<StopOutcome<T>> {
  const own = work.then(
    (value): StopOutcome<T> => ({ kind: 'settled', value }),
    (error: unknown): StopOutcome<T> => ({ kind: 'failed', error }),
  );
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      timer = setTimeout(() => resolve({ kind: 'abandoned' }), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    void own.then((outcome) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    });
  });
}
