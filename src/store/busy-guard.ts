import Database from 'better-sqlite3';
import { StoreBusyError } from '../core/store-errors.js';

function isBusy(error: unknown): boolean {
  return (
    error instanceof Database.SqliteError &&
    (error.code === 'SQLITE_BUSY' || error.code.startsWith('SQLITE_BUSY_'))
  );
}

/**
 * Wraps every method of `api` so that SQLite's "database is locked" (the busy timeout ran out) surfaces
 * as a StoreBusyError naming the file and the wait.
 */
export function busyGuard<T extends object>(api: T, path: string, timeoutMs: number): T {
  const guarded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(api)) {
    guarded[key] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            try {
              return value(...args);
            } catch (error) {
              if (isBusy(error)) throw new StoreBusyError(path, timeoutMs, { cause: error });
              throw error;
            }
          }
        : value;
  }
  return guarded as T;
}
