import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { newId } from '../store-context.js';

/** One statement's parameters: by name (`@name` in the SQL) or by position (`?`). */
export type Params = Readonly<Record<string, unknown>> | readonly unknown[];

/** What every Postgres table module shares: queries on the current transaction's client, the clock, ids. */
export interface PgContext {
  readonly now: () => number;
  /** A short random id such as `ap-7k3m9q2xhd`. */
  readonly newId: (prefix: string) => string;
  /** The rows a statement returns, run on the current transaction's client (or the pool outside one). */
  readonly all: <R>(sql: string, params?: Params) => Promise<R[]>;
  /** The first row a statement returns, or undefined. */
  readonly get: <R>(sql: string, params?: Params) => Promise<R | undefined>;
  /** How many rows a statement changed. */
  readonly run: (sql: string, params?: Params) => Promise<number>;
  /**
   * Runs one store method's work as one transaction on one pooled client; inside another method's (or
   * the caller's) transaction it simply joins it. A deadlock or serialization failure retries it whole.
   */
  readonly write: <T>(work: () => Promise<T>) => Promise<T>;
  /** Runs `work` in one read-only snapshot, so several selects agree (joins a running transaction). */
  readonly read: <T>(work: () => Promise<T>) => Promise<T>;
}

/** The SQL with `@name` and `?` parameters rewritten as Postgres's `$n`, and the values in order. */
export function positional(sql: string, params: Params = []): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  if (Array.isArray(params)) {
    let i = 0;
    const text = sql.replace(/\?/g, () => {
      values.push((params as readonly unknown[])[i++]);
      return `$${i}`;
    });
    return { text, values };
  }
  const named = params as Readonly<Record<string, unknown>>;
  const slots = new Map<string, number>();
  const text = sql.replace(/@([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    let slot = slots.get(name);
    if (slot === undefined) {
      if (!(name in named)) throw new Error(`SQL parameter @${name} was not given`);
      values.push(named[name] === undefined ? null : named[name]);
      slot = values.length;
      slots.set(name, slot);
    }
    return `$${slot}`;
  });
  return { text, values };
}

/** Postgres error codes worth one more try of the whole transaction. */
const RETRYABLE = new Set(['40001', '40P01']);
const ATTEMPTS = 5;

/** The transaction a piece of work runs in: its client, and whether a store method is already running in it. */
interface Running {
  readonly client: pg.PoolClient;
  readonly inMethod: boolean;
}

/** Builds the shared context on `pool`. */
export function pgContext(
  pool: pg.Pool,
  now: () => number = Date.now,
): PgContext & {
  /** The public `transaction`: the caller's work as one transaction, store methods inside it joining. */
  readonly transaction: <T>(work: () => Promise<T>) => Promise<T>;
} {
  const current = new AsyncLocalStorage<Running>();
  const query = async <R>(sql: string, params?: Params): Promise<pg.QueryResult & { rows: R[] }> => {
    const { text, values } = positional(sql, params);
    const client = current.getStore()?.client;
    return (client ?? pool).query(text, values) as Promise<pg.QueryResult & { rows: R[] }>;
  };
  /** A store method inside the caller's transaction: a savepoint, so a failing method undoes only its own writes. */
  const savepoint = async <T>(running: Running, work: () => Promise<T>): Promise<T> => {
    await running.client.query('SAVEPOINT store_method');
    try {
      const result = await current.run({ client: running.client, inMethod: true }, work);
      await running.client.query('RELEASE SAVEPOINT store_method');
      return result;
    } catch (error) {
      await running.client.query('ROLLBACK TO SAVEPOINT store_method');
      throw error;
    }
  };
  const inTransaction = async <T>(begin: string, inMethod: boolean, work: () => Promise<T>): Promise<T> => {
    const running = current.getStore();
    if (running !== undefined) return running.inMethod || !inMethod ? work() : savepoint(running, work);
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query(begin);
        const result = await current.run({ client, inMethod }, work);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        const code = (error as { code?: string }).code;
        if (code === undefined || !RETRYABLE.has(code) || attempt >= (inMethod ? ATTEMPTS : 1)) throw error;
      } finally {
        client.release(broken);
      }
    }
  };
  return {
    now,
    newId,
    all: async (sql, params) => (await query(sql, params)).rows,
    get: async (sql, params) => (await query(sql, params)).rows[0],
    run: async (sql, params) => (await query(sql, params)).rowCount ?? 0,
    write: (work) => inTransaction('BEGIN', true, work),
    read: (work) => inTransaction('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', true, work),
    transaction: (work) => inTransaction('BEGIN', false, work),
  };
}
