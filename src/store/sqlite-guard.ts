import Database from 'better-sqlite3';
import { StoreBusyError, StoreFailedError } from '../core/store-errors.js';

function isBusy(error: { readonly code: string }): boolean {
  return error.code === 'SQLITE_BUSY' || error.code.startsWith('SQLITE_BUSY_');
}

/** What a person can do about a SQLite failure that is the file's or the machine's, not ours. */
function remedyFor(code: string): string | undefined {
  if (code.startsWith('SQLITE_READONLY'))
    return 'this user cannot write it: fix its permissions (and its folder’s), or choose another file with --db';
  if (code === 'SQLITE_FULL') return 'the disk is full: free some space and try again';
  if (code.startsWith('SQLITE_IOERR'))
    return 'reading or writing it failed (a disk or file-system error): check the disk and try again';
  if (code.startsWith('SQLITE_CANTOPEN'))
    return 'it or its folder can no longer be opened: check that both still exist and are writable';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return 'it is damaged: keep a copy, then choose another file with --db';
  return undefined;
}

/** The store error a SQLite failure a person can act on stands for; undefined for anything else (a bug). */
export function storeErrorFor(error: unknown, path: string, timeoutMs: number): Error | undefined {
  if (!(error instanceof Database.SqliteError)) return undefined;
  if (isBusy(error)) return new StoreBusyError(path, timeoutMs, { cause: error });
  const remedy = remedyFor(error.code);
  return remedy === undefined ? undefined : new StoreFailedError(path, error.code, remedy, { cause: error });
}

/** `T`'s methods as SQLite runs them: synchronously, returning what `T`'s promises resolve to. */
export type Synchronous<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/** The store error `error` stands for when a person can act on it, else `error` itself (a bug). */
function translated(error: unknown, path: string, timeoutMs: number): unknown {
  return storeErrorFor(error, path, timeoutMs) ?? error;
}

/**
 * Turns each synchronous method of `api` into one returning a promise. The work runs at once, inside the
 * call, so each method stays one transaction that no await can split (and joins a `transaction` the
 * caller is running). SQLite failures a person can act on reject as store errors naming the file:
 * "database is locked" (the busy timeout ran out) as StoreBusyError; a read-only file, a full disk, an
 * I/O error or a damaged file as StoreFailedError. Anything else is a bug and rejects as it is.
 */
export function sqliteGuard<T>(api: Synchronous<T>, path: string, timeoutMs: number): T {
  const guarded: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(api as Record<string, (...args: unknown[]) => unknown>)) {
    guarded[key] = (...args: unknown[]) => {
      try {
        return Promise.resolve(method(...args));
      } catch (error) {
        return Promise.reject(translated(error, path, timeoutMs));
      }
    };
  }
  return guarded as T;
}

/** Runs `work` synchronously, throwing the store error a SQLite failure stands for (as `sqliteGuard`). */
export function guardedNow<T>(work: () => T, path: string, timeoutMs: number): T {
  try {
    return work();
  } catch (error) {
    throw translated(error, path, timeoutMs);
  }
}
