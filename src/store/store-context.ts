import { randomFillSync } from 'node:crypto';
import type Database from 'better-sqlite3';

/** What every table module shares: the connection, the clock and the id maker. */
export interface StoreContext {
  readonly db: Database.Database;
  readonly now: () => number;
  /** A short random id such as `ap-7k3m9q2xhd`. */
  readonly newId: (prefix: string) => string;
  /**
   * Runs one store method's writes in an IMMEDIATE transaction. Inside a caller's `transaction` it is
   * a savepoint (the method stays all-or-nothing); inside another store method it simply joins.
   */
  readonly write: <T>(work: () => T) => T;
  /** The public `transaction`: the caller's work as one transaction. */
  readonly transaction: <T>(work: () => T) => T;
  /** Runs `work` in a read transaction, so several selects see one snapshot. */
  readonly read: <T>(work: () => T) => T;
  /** Calls `listener` whenever a write or transaction fails and its changes are undone. */
  readonly onUndo: (listener: () => void) => void;
  /**
   * Calls `listener` after each write or transaction returns (inside a caller's transaction, a write's
   * savepoint counts though the transaction may still be undone): a count of commits, close enough.
   */
  readonly onCommit: (listener: () => void) => void;
}

// Crockford's base32, lower case: no i, l, o or u to misread when typed from a terminal.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Random bytes drawn from the system in one call and handed out ten at a time. */
const pool = Buffer.alloc(1000);
let used = pool.length;

/**
 * A random id: `prefix-` and ten base32 characters (50 bits). The bytes come from a pool refilled from
 * the system's generator when spent: one call for the ids of a hundred turns, where each id cost a call.
 */
export function newId(prefix: string): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let text = '';
  for (let end = used + 10; used < end; used += 1) text += ALPHABET[(pool[used] as number) & 31];
  return `${prefix}-${text}`;
}

/** Builds the shared context for a connection. */
export function storeContext(db: Database.Database, now: () => number = Date.now): StoreContext {
  // IMMEDIATE takes the write lock up front: a deferred transaction that reads and then writes can
  // fail at once (SQLITE_BUSY) instead of waiting when another process wrote in between.
  const run = db.transaction((work: () => unknown) => work());
  // How many store methods are running their writes right now; nested ones need no savepoint of their own.
  let depth = 0;
  const inMethod =
    <T>(work: () => T) =>
    () => {
      depth += 1;
      try {
        return work();
      } finally {
        depth -= 1;
      }
    };
  const undoListeners: (() => void)[] = [];
  const commitListeners: (() => void)[] = [];
  /** `run.immediate(work)`, telling the listeners whether it committed or threw (SQLite then undoes its changes). */
  const undoable = <T>(work: () => T): T => {
    let result: T;
    try {
      result = run.immediate(work) as T;
    } catch (error) {
      for (const listener of undoListeners) listener();
      throw error;
    }
    for (const listener of commitListeners) listener();
    return result;
  };
  return {
    db,
    now,
    newId,
    write: <T>(work: () => T) => (depth > 0 ? work() : undoable(inMethod(work))),
    transaction: <T>(work: () => T) => {
      const outer = depth;
      depth = 0;
      try {
        return undoable(work);
      } finally {
        depth = outer;
      }
    },
    onUndo: (listener) => {
      undoListeners.push(listener);
    },
    onCommit: (listener) => {
      commitListeners.push(listener);
    },
    read: <T>(work: () => T) => run.deferred(work) as T,
  };
}
