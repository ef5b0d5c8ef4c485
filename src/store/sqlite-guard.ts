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

/**
 * Wraps every method of `api` so that SQLite failures a person can act on surface as store errors
 * naming the file: "database is locked" (the busy timeout ran out) as StoreBusyError; a read-only
 * file, a full disk, an I/O error or a damaged file as StoreFailedError. Anything else is a bug and
 * is thrown as it is.
 */
export function sqliteGuard<T extends object>(api: T, path: string, timeoutMs: number): T {
  const guarded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(api)) {
    guarded[key] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            try {
              return value(...args);
            } catch (error) {
              throw storeErrorFor(error, path, timeoutMs) ?? error;
            }
          }
        : value;
  }
  return guarded as T;
}
