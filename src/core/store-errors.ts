import { ToolseamError } from './errors.js';

/** The session store could not be opened or used at `path`. */
export class StoreOpenError extends ToolseamError {
  constructor(
    message: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super('store_open_failed', message, options);
  }
}

/** The database was written by a newer toolseam; this one refuses to touch it. */
export class StoreSchemaTooNewError extends ToolseamError {
  constructor(
    readonly path: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      'store_schema_too_new',
      `The database ${path} has schema version ${found}, but this toolseam understands versions up to ${supported}. ` +
        'It was written by a newer toolseam: upgrade toolseam, or point it at another database file with --db.',
    );
  }
}

/** A record the caller named does not exist. */
export class StoreNotFoundError extends ToolseamError {
  constructor(
    readonly kind: string,
    readonly id: string,
  ) {
    super('store_not_found', `No ${kind} with id ${JSON.stringify(id)} exists in the session store.`);
  }
}

/** A change was asked of a record whose status does not allow it (someone else got there first). */
export class StoreConflictError extends ToolseamError {
  constructor(
    readonly kind: string,
    readonly id: string,
    readonly status: string,
    readonly wanted: string,
  ) {
    super(
      'store_conflict',
      `The ${kind} ${JSON.stringify(id)} is ${status}, so it cannot become ${wanted}; re-read it and act on its current state.`,
    );
  }
}

/** An answer named a call other than the one the approval is about. */
export class ApprovalMismatchError extends ToolseamError {
  constructor(
    readonly approvalId: string,
    readonly expected: string,
    readonly given: string,
  ) {
    super(
      'approval_mismatch',
      `The answer does not match approval ${approvalId}: it names a different call (digest ${given.slice(0, 12)}…, ` +
        `the approval is for ${expected.slice(0, 12)}…). Fetch the approval again and answer the call it shows.`,
    );
  }
}

/** An approval was answered after it had already been answered, expired or cancelled. */
export class ApprovalClosedError extends ToolseamError {
  constructor(
    readonly approvalId: string,
    readonly status: string,
  ) {
    super(
      'approval_closed',
      status === 'expired'
        ? `Approval ${approvalId} expired before it was answered, so its call does not run.`
        : `Approval ${approvalId} is already ${status}; only a pending approval can be answered.`,
    );
  }
}

/** "Always" was answered to a question that never said what it would cover (asked by an earlier toolseam). */
export class AlwaysNotOfferedError extends ToolseamError {
  constructor(readonly approvalId: string) {
    super(
      'always_not_offered',
      `Approval ${approvalId} was asked by an earlier version of toolseam, which did not show what "always" ` +
        'would cover, so it takes yes or no only. Answer yes to run this call once; the next question about ' +
        'the tool shows what "always" covers.',
    );
  }
}

/**
 * The store could not read or write for a reason outside toolseam: SQLite's file (permissions, disk) or a
 * PostgreSQL server (the network, the server, its disk).
 */
export class StoreFailedError extends ToolseamError {
  constructor(
    readonly path: string,
    /** SQLite's own code, e.g. `SQLITE_READONLY`, `SQLITE_FULL`; for PostgreSQL `PG_` and its code (`PG_08006`, `PG_ECONNREFUSED`). */
    readonly sqliteCode: string,
    remedy: string,
    options?: { cause?: unknown },
  ) {
    super('store_failed', `The session store ${path} failed (${sqliteCode}): ${remedy}.`, options);
  }
}

/** Another process held the store's write lock for longer than the busy timeout. */
export class StoreBusyError extends ToolseamError {
  constructor(
    readonly path: string,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(
      'store_busy',
      `The session store ${path} stayed locked by another process for more than ${timeoutMs} ms. ` +
        'Try again, or check for a stuck toolseam process using the same database.',
      options,
    );
  }
}
