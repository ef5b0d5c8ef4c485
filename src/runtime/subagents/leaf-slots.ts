import type { Runtime } from '../runtime.js';

interface Slots {
  inUse: number;
  readonly waiting: Array<() => void>;
}

const byRuntime = new WeakMap<Runtime, Slots>();

/**
 * Waits for one of the runtime's `limit` leaf slots, shared by every batch it runs (two
 * `subagent_run` calls in one reply share the same `concurrency`). Resolves with the slot's release;
 * resolves with undefined when `signal` aborts first.
 */
export async function leafSlot(
  runtime: Runtime,
  limit: number,
  signal: AbortSignal,
): Promise<(() => void) | undefined> {
  let slots = byRuntime.get(runtime);
  if (slots === undefined) {
    slots = { inUse: 0, waiting: [] };
    byRuntime.set(runtime, slots);
  }
  const pool = slots;
  while (pool.inUse >= limit) {
    if (signal.aborted) return undefined;
    await new Promise<void>((resolve) => {
      const wake = (): void => {
        signal.removeEventListener('abort', wake);
        const at = pool.waiting.indexOf(wake);
        if (at >= 0) pool.waiting.splice(at, 1);
        resolve();
      };
      pool.waiting.push(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }
  if (signal.aborted) return undefined;
  pool.inUse += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    pool.inUse -= 1;
    // Every waiter checks again, in the order they came: callers bring their own limits, so the
    // first in line may still have no room while a later one does.
    for (const wake of [...pool.waiting]) wake();
  };
}
