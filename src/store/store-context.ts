import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';

/** What every table module shares: the connection, the clock and the id maker. */
export interface StoreContext {
  readonly db: Database.Database;
  readonly now: () => number;
  /** A short random id such as `ap-7k3m9q2xhd`. */
  readonly newId: (prefix: string) => string;
  /** Runs `work` in an IMMEDIATE transaction (a savepoint when already inside one). */
  readonly write: <T>(work: () => T) => T;
  /** Runs `work` in a read transaction, so several selects see one snapshot. */
  readonly read: <T>(work: () => T) => T;
}

// Crockford's base32, lower case: no i, l, o or u to misread when typed from a terminal.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A random id: `prefix-` and ten base32 characters (50 bits). */
export function newId(prefix: string): string {
  let text = '';
  for (const byte of randomBytes(10)) text += ALPHABET[byte & 31];
  return `${prefix}-${text}`;
}

/** Builds the shared context for a connection. */
export function storeContext(db: Database.Database, now: () => number = Date.now): StoreContext {
  // IMMEDIATE takes the write lock up front: a deferred transaction that reads and then writes can
  // fail at once (SQLITE_BUSY) instead of waiting when another process wrote in between.
  const run = db.transaction((work: () => unknown) => work());
  return {
    db,
    now,
    newId,
    write: <T>(work: () => T) => run.immediate(work) as T,
    read: <T>(work: () => T) => run.deferred(work) as T,
  };
}
