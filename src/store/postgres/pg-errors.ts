import { StoreFailedError, StoreOpenError } from '../../core/store-errors.js';
import { idTaken } from '../rows.js';

/** How to start the PostgreSQL this machine runs, for a message about a server that cannot be reached. */
export const START_HINT = 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';

/** A StoreOpenError about the store at `where`. */
export function pgOpenError(message: string, where: string, cause?: unknown): StoreOpenError {
  return new StoreOpenError(message, where, cause === undefined ? undefined : { cause });
}

const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/** What a person can do about a failure of the server, the network or the login; undefined for anything else. */
function remedyFor(error: { code?: string; message: string }): string | undefined {
  const code = error.code ?? '';
  if (NETWORK.has(code) || /timeout|terminated|Connection terminated/i.test(error.message))
    return `no PostgreSQL answered there: check the host and port, or start the server (on this machine: ${START_HINT})`;
  if (code === '28P01' || code === '28000')
    return 'the server refused the login: check the user and password in the URL';
  if (code === '3D000')
    return 'that database does not exist: create it (createdb NAME) or name another in the URL';
  if (code === '42501')
    return 'the user lacks a permission the store needs (creating tables, writing rows): grant it';
  if (code === '53100') return 'the database server is out of disk space: free some and try again';
  if (code.startsWith('08') || code === '57P01' || code === '57P03')
    return 'the connection to the server was lost or refused: check that it runs and try again';
  return undefined;
}

/**
 * The store error a Postgres failure a person can act on stands for (opening: StoreOpenError; later:
 * StoreFailedError), undefined for anything else (a bug, which rejects as it is).
 */
export function pgErrorFor(error: unknown, where: string, when: 'open' | 'use' = 'use'): Error | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error instanceof TypeError && /Invalid URL/i.test(error.message)) {
    return pgOpenError(
      `${where} is not a PostgreSQL URL it can read: ${error.message}. Write it as postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.`,
      where,
      error,
    );
  }
  const remedy = remedyFor(error as { code?: string; message: string });
  if (remedy === undefined) return undefined;
  if (when === 'open')
    return pgOpenError(
      `Cannot open the session store at ${where}: ${error.message}; ${remedy}.`,
      where,
      error,
    );
  // Prefixed, so a code reads as Postgres's (or the network's) wherever SQLite's codes are read too.
  return new StoreFailedError(where, `PG_${(error as { code?: string }).code ?? '08000'}`, remedy, {
    cause: error,
  });
}

/**
 * Runs the insert of a `kind` row under `id` into `table`: when another process inserted the same id
 * between the check and this insert, rejects with the refusal the check gives (not PostgreSQL's text).
 */
export async function insertingId<T>(
  kind: string,
  id: string,
  table: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const e = error as { code?: string; constraint?: string };
    if (e.code === '23505' && e.constraint === `${table}_pkey`) throw idTaken(kind, id);
    throw error;
  }
}
