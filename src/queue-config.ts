import { InputError } from './core/errors.js';
import { isPostgresUrl } from './store/postgres-url.js';

/** The `"queue"` section of `toolseam.json`: hosted mode's job queue (pg-boss on PostgreSQL). */
export interface QueueConfig {
  /** `postgres://…` of the database pg-boss keeps its jobs in. */
  readonly url: string;
  /** pg-boss's schema in it (default `toolseam_jobs`). */
  readonly schema?: string;
  /**
   * `toolseam serve` also works on jobs, as a worker does (default true, so a lone `serve` on
   * PostgreSQL still runs its turns; false: it only sends them, for a deployment with workers).
   */
  readonly work?: boolean;
  /** Jobs one process runs at once (default 4). */
  readonly concurrency?: number;
  /**
   * How long a worker on another machine may stay silent before its turns are taken over (seconds,
   * default 20; workers mark their turns alive every quarter of it).
   */
  readonly takeoverSeconds?: number;
  /** How often a worker looks for turns to take over or to go on with (seconds, default 5). */
  readonly sweepSeconds?: number;
}

/** `"queue"` as written: its URL may be left to the PostgreSQL database the process opens. */
export type QueueSettings = Omit<QueueConfig, 'url'> & { readonly url?: string };

const KEYS = ['url', 'schema', 'work', 'concurrency', 'takeoverSeconds', 'sweepSeconds'];

/**
 * The job queue a process uses: the config's `"queue"`; absent, one on the PostgreSQL database the
 * process opens (`--db` or the config's `db`), so a PostgreSQL store means hosted mode; none with
 * SQLite, or with `"queue": false`.
 */
export function hostedQueue(
  queue: QueueSettings | false | undefined,
  db: string | undefined,
): QueueConfig | undefined {
  if (queue === false) return undefined;
  if (queue?.url !== undefined) return { ...queue, url: queue.url };
  if (db === undefined || !isPostgresUrl(db)) {
    if (queue === undefined) return undefined;
    throw new InputError(
      '"queue" in the config needs "url" (a postgres:// URL) when the database is not PostgreSQL.',
    );
  }
  // The store's own `?schema=` names its schema; the jobs go beside it, in one of their own. Its
  // `?pool=` sizes the store's pool only: the queue keeps its own few connections.
  const url = new URL(db.trim());
  const storeSchema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  url.searchParams.delete('pool');
  return { ...(storeSchema ? { schema: `${storeSchema}_jobs` } : {}), ...queue, url: url.toString() };
}

/** Reads `"queue"`: a postgres:// URL, an object, or `false` (off even when the database is PostgreSQL). */
export function readQueueConfig(value: unknown): QueueSettings | false | undefined {
  const fail = (what: string): never => {
    throw new InputError(`"queue" in the config ${what}`);
  };
  if (value === false) return false;
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    if (!isPostgresUrl(value)) fail(`must be a postgres:// URL (or false), not "${value}".`);
    return { url: value };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(
      'must be a postgres:// URL, an object such as {"url": "postgres://…", "work": true}, or false.',
    );
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (!KEYS.includes(key)) fail(`has unknown key "${key}"; the keys are ${KEYS.join(', ')}.`);
  }
  const url = v.url;
  if (url !== undefined && (typeof url !== 'string' || !isPostgresUrl(url.trim()))) {
    fail('"url" must be a postgres:// URL (leave it out to share a PostgreSQL database).');
  }
  if (v.schema !== undefined && (typeof v.schema !== 'string' || !/^[a-z_][a-z0-9_]*$/i.test(v.schema))) {
    fail('"schema" must be a plain name of letters, digits and underscores.');
  }
  if (v.work !== undefined && typeof v.work !== 'boolean') fail('"work" must be true or false.');
  for (const key of ['concurrency', 'takeoverSeconds', 'sweepSeconds']) {
    const n = v[key];
    if (n !== undefined && (typeof n !== 'number' || !Number.isInteger(n) || n < 1)) {
      fail(`"${key}" must be a whole number of at least 1.`);
    }
  }
  return {
    ...(typeof url === 'string' ? { url } : {}),
    ...(typeof v.schema === 'string' ? { schema: v.schema } : {}),
    ...(typeof v.work === 'boolean' ? { work: v.work } : {}),
    ...(typeof v.concurrency === 'number' ? { concurrency: v.concurrency } : {}),
    ...(typeof v.takeoverSeconds === 'number' ? { takeoverSeconds: v.takeoverSeconds } : {}),
    ...(typeof v.sweepSeconds === 'number' ? { sweepSeconds: v.sweepSeconds } : {}),
  };
}
