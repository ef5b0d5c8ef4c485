import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { ToolseamError } from '../core/errors.js';
import { StoreOpenError } from '../core/store-errors.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations.js';
import { requireOneOf } from './rows.js';
import { storeErrorFor } from './sqlite-guard.js';

/** How long a write waits for another process's lock by default. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** How the SQLite connection is set up. */
export interface DatabaseOptions {
  /** How long a write waits for another process's lock before failing (default 5,000 ms). */
  readonly busyTimeoutMs?: number;
  /**
   * `normal` (default): every commit survives the process being killed, and the file is never corrupted,
   * but the last commits may be lost if the machine loses power. `full` adds an fsync per commit
   * (milliseconds each) so commits survive power loss too.
   */
  readonly synchronous?: 'full' | 'normal';
}

/** The path that opens a private store in memory (gone when it is closed), as SQLite spells it. */
export const IN_MEMORY = ':memory:';

/**
 * Opens (creating when missing, with its folder) the SQLite file at `path` in WAL mode with foreign
 * keys and a busy timeout, and applies any pending migrations; `:memory:` opens a private store in
 * memory instead. Throws StoreOpenError or StoreSchemaTooNewError with what to do.
 */
export function openDatabase(path: string, options: DatabaseOptions = {}): Database.Database {
  if (path === IN_MEMORY) return setUp(new Database(IN_MEMORY), IN_MEMORY, options);
  const file = resolve(path);
  try {
    // Conversations can hold private things: a folder we create is the user's alone.
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new StoreOpenError(
      `Cannot create the folder for the session store ${file}: ${(cause as Error).message}. ` +
        'Choose a writable location with --db.',
      file,
      { cause },
    );
  }
  let db: Database.Database;
  try {
    if (!existsSync(file)) {
      // SQLite gives its -wal and -shm files the database file's mode: a new file is the user's alone.
      closeSync(openSync(file, 'a', 0o600));
    }
    db = new Database(file);
  } catch (cause) {
    throw new StoreOpenError(
      `Cannot open the session store ${file}: ${(cause as Error).message}. Check that the path is a writable file, or choose another with --db.`,
      file,
      { cause },
    );
  }
  return setUp(db, file, options);
}

/** Pragmas and migrations on a freshly opened connection; closes it when anything fails. */
function setUp(db: Database.Database, file: string, options: DatabaseOptions): Database.Database {
  try {
    const busy = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    if (!Number.isInteger(busy) || busy < 0)
      throw new StoreOpenError(
        `busyTimeoutMs must be a whole number of milliseconds ≥ 0, got ${busy}.`,
        file,
      );
    db.pragma(`busy_timeout = ${busy}`);
    // An in-memory database has no write-ahead log; nothing else shares it, so none is needed.
    const mode = db.memory ? 'wal' : db.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') {
      throw new StoreOpenError(
        `The session store ${file} could not switch to WAL mode (it reports ${String(mode)}).`,
        file,
      );
    }
    db.pragma('foreign_keys = ON');
    const sync = requireOneOf(options.synchronous ?? 'normal', ['normal', 'full'] as const, 'synchronous');
    db.pragma(`synchronous = ${sync.toUpperCase()}`);
    migrate(db, file, MIGRATIONS);
    return db;
  } catch (cause) {
    db.close();
    if (cause instanceof ToolseamError) throw cause;
    // Locked by another process, read-only, a full disk: say that, not "is it a toolseam database?".
    const known = storeErrorFor(cause, file, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
    if (known !== undefined && (cause as { code?: string }).code !== 'SQLITE_NOTADB') throw known;
    throw new StoreOpenError(
      `Cannot use ${file} as the session store: ${(cause as Error).message}. ` +
        'If it is not a toolseam database, choose another file with --db.',
      file,
      { cause },
    );
  }
}
