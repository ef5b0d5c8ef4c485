/** The last change queued on each file (by real path); it settles, never rejects, when that change ends. */
const queued = new Map<string, Promise<void>>();

/**
 * Runs `change` once every change queued earlier on the same file (by real path) has ended, so the calls of
 * one reply that run side by side never read a file another of them is about to replace.
 */
export async function oneAtATime<T>(real: string, change: () => Promise<T>): Promise<T> {
  const before = queued.get(real) ?? Promise.resolve();
  const mine = before.then(change);
  const ended = mine.then(
    () => undefined,
    () => undefined,
  );
  queued.set(real, ended);
  try {
    return await mine;
  } finally {
    if (queued.get(real) === ended) queued.delete(real);
  }
}
