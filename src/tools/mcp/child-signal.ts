/** `work`, or the error `stopped` makes once `signal` aborts first (the work itself goes on). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, stopped: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(stopped());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A signal aborted with `parent`, whose link to it is dropped by `release`. */
export function childSignal(parent: AbortSignal): { signal: AbortSignal; release(): void } {
  const child = new AbortController();
  const relay = () => child.abort(parent.reason);
  if (parent.aborted) relay();
  else parent.addEventListener('abort', relay, { once: true });
  return { signal: child.signal, release: () => parent.removeEventListener('abort', relay) };
}
