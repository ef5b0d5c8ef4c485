import type { ToolCallOutcome } from '../../core/session-inputs.js';
import type { SessionStore } from '../../core/session-store.js';
import { StoreBusyError, StoreFailedError } from '../../core/store-errors.js';

/** A call's outcome the store could not take in time: kept by the runtime until it can. */
export interface UnsavedResult {
  readonly turnId: string;
  readonly callId: string;
  readonly outcome: ToolCallOutcome;
}

/** How long a turn keeps trying a write the store refused for a reason that may pass (default 60 s). */
export const STORE_RETRY_MS = 60_000;

/** How long it waits between two tries (each try itself waits out the store's busy timeout on a lock). */
const RETRY_EVERY_MS = 1_000;

/**
 * Codes of a failure that may pass: SQLite's lock, full disk or I/O error (not a damaged or read-only
 * file); PostgreSQL's lost connection, server shutting down or full disk (not a refused login).
 */
const PASSING = /^(SQLITE_(FULL|IOERR)|PG_(E[A-Z_]+|08\w+|57P0[13]|53100))/;

/** True for a store failure that may pass while toolseam waits: a lock held too long, a full disk, an I/O error. */
export function isPassingStoreFailure(error: unknown): error is StoreBusyError | StoreFailedError {
  return (
    error instanceof StoreBusyError || (error instanceof StoreFailedError && PASSING.test(error.sqliteCode))
  );
}

/**
 * Runs `write`; while the store refuses it for a reason that may pass, tries again every second for up to
 * `windowMs` (calling `onWait` with the failure before the first wait), so what the write keeps (a tool's
 * output, the model's reply) is stored once the store answers again. Any other failure, or the last one
 * once the window has passed, is thrown.
 */
export async function writeWhenStoreAnswers<T>(
  write: () => Promise<T>,
  windowMs: number,
  onWait: (error: StoreBusyError | StoreFailedError) => void,
): Promise<T> {
  const until = Date.now() + windowMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (!isPassingStoreFailure(error) || Date.now() >= until) throw error;
      if (attempt === 0) onWait(error);
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(RETRY_EVERY_MS, Math.max(0, until - Date.now()))),
      );
    }
  }
}

/** What keeps the store from answering, in a few words: `another process holds its lock`, `the disk is full`. */
export function storeTrouble(error: StoreBusyError | StoreFailedError): string {
  if (error instanceof StoreBusyError) return 'another process holds its lock';
  if (error.sqliteCode === 'SQLITE_FULL' || error.sqliteCode === 'PG_53100') return 'the disk is full';
  if (error.sqliteCode.startsWith('PG_')) return 'its database server does not answer';
  return 'reading or writing its file failed';
}

/**
 * Writes the outcomes the store could not take before (removing each it now takes, or that something else
 * settled meanwhile); those it still refuses for a passing reason stay for the next try. Never rejects.
 */
export async function writeUnsaved(store: SessionStore, unsaved: UnsavedResult[]): Promise<void> {
  // All are taken out before the first await: a turn ending meanwhile, writing the same list, must not
  // write an outcome twice (nor remove another's place in the list).
  const taken = unsaved.splice(0);
  for (const [i, item] of taken.entries()) {
    try {
      await store.recordToolResult(item.turnId, item.callId, item.outcome);
    } catch (error) {
      if (isPassingStoreFailure(error)) {
        // Still refused: this one and those after it wait for the next try, ahead of any added meanwhile.
        unsaved.unshift(...taken.slice(i));
        return;
      }
      // settled meanwhile (answered as interrupted by another process), or gone with its session
    }
  }
}
