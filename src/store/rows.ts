import type { Database, Statement } from 'better-sqlite3';
import { InputError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import { isPlainObject } from '../core/json.js';
import { nestsTooDeep, tooDeepWords } from '../core/json-depth.js';
import { StoreNotFoundError } from '../core/store-errors.js';
import { isWholeText } from '../core/text-cut.js';

/** SQL NULL read as absent. */
export function opt<T>(value: T | null): T | undefined {
  return value ?? undefined;
}

/** An optional value written as SQL NULL when absent. */
export function orNull<T>(value: T | undefined): T | null {
  return value ?? null;
}

/**
 * True when SQLite reads each of `row`'s values back exactly as written: numbers, NULL and strings of
 * whole characters (a string holding half of a surrogate pair is kept as bytes that read back otherwise).
 * A row it keeps as written need not be read back after an insert.
 */
export function keptAsWritten(row: object): boolean {
  for (const value of Object.values(row)) {
    if (value === null || typeof value === 'number') continue;
    if (typeof value !== 'string' || !isWholeText(value)) return false;
  }
  return true;
}

/** Parses JSON text this store wrote itself. */
export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** A JSON object column, or absent. */
export function optObject(text: string | null): JsonObject | undefined {
  return text === null ? undefined : (JSON.parse(text) as JsonObject);
}

/** An optional text field as SQL text or NULL; anything but a string or undefined is refused, naming it. */
export function textOrNull(value: unknown, what: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string') {
    throw new InputError(
      `${what} must be a string, or be left out; got ${JSON.stringify(value) ?? String(value)}.`,
    );
  }
  return value;
}

/** Rejects an empty or blank text field with an error naming it. */
export function requireText(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InputError(
      `${what} must be a non-empty string, got ${JSON.stringify(value) ?? String(value)}.`,
    );
  }
  return value;
}

/** Rejects anything but a plain JSON object, and one nested too deep to be written as JSON text. */
export function requireObject(value: unknown, what: string): JsonObject {
  if (!isPlainObject(value)) throw new InputError(`${what} must be a JSON object.`);
  if (nestsTooDeep(value))
    throw new InputError(`${what} cannot be stored: the value holds ${tooDeepWords()}.`);
  return value as JsonObject;
}

/** A row limit for SQL: -1 (no limit) when absent; a positive whole number otherwise. */
export function sqlLimit(limit: number | undefined): number {
  if (limit === undefined) return -1;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new InputError(`limit must be a whole number of at least 1, got ${limit}.`);
  }
  return limit;
}

/**
 * `LIMIT` on a bound parameter. A plain `LIMIT ?` is read by SQLite when it plans the statement, which
 * marks the statement to be planned again whenever that parameter is bound, so every call paid a
 * fresh prepare; read through a CAST, the value is taken only when the statement runs.
 */
export function limitBy(param: string): string {
  return `LIMIT CAST(${param} AS INTEGER)`;
}

/** A message position to list after (0 when not given); refuses anything but a whole number ≥ 0. */
export function sqlAfter(seq: number | null | undefined, what: string): number {
  if (seq === undefined || seq === null) return 0;
  if (!Number.isSafeInteger(seq) || seq < 0) {
    throw new InputError(
      `${what} must be a whole number of at least 0 (a message's seq), got ${String(seq)}.`,
    );
  }
  return seq;
}

/**
 * A status filter for `inSet` (",a,b," text), or NULL for "any". A text match rather than
 * `IN (SELECT … json_each(?))`, which builds a temporary b-tree (and its page cache) on every call.
 */
export function statusFilter<S extends string>(
  status: S | readonly S[] | undefined,
  allowed: readonly S[],
  what: string,
): string | null {
  if (status === undefined) return null;
  const list: readonly S[] = typeof status === 'string' ? [status] : status;
  for (const s of list) {
    if (!allowed.includes(s)) {
      throw new InputError(`${what} ${JSON.stringify(s)} is not one of ${allowed.join(', ')}.`);
    }
  }
  return statusSet(list);
}

/** Rejects a value outside `allowed`, naming the accepted ones. */
export function requireOneOf<S extends string>(value: unknown, allowed: readonly S[], what: string): S {
  if (!allowed.includes(value as S)) {
    throw new InputError(`${what} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}.`);
  }
  return value as S;
}

/** The last time `iso` wrote out: the rows a turn writes or reads mostly share a millisecond. */
let lastIso = { ms: Number.NaN, text: '' };

/** A stored time (epoch ms) as ISO-8601 text. */
export function iso(ms: number): string {
  if (ms !== lastIso.ms) lastIso = { ms, text: new Date(ms).toISOString() };
  return lastIso.text;
}

/** An optional stored time as ISO-8601 text. */
export function optIso(ms: number | null): string | undefined {
  return ms === null ? undefined : iso(ms);
}

/** An optional ISO time given by a caller, as epoch ms for storage. */
export function msFrom(text: string | undefined, what: string): number | null {
  if (text === undefined) return null;
  const ms = typeof text === 'string' ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms))
    throw new InputError(`${what} must be an ISO-8601 time, got ${JSON.stringify(text)}.`);
  return ms;
}

/** A filter of `filteredList`: SQL with its `@parameter`, or SQL written from the value itself (nothing bound). */
export type FilterTerm = string | ((value: string) => string);

/**
 * A list query narrowed by only the filters a caller gives, one prepared statement per WHERE clause (made
 * on first use). `build` gets the WHERE clause; `terms` gives each filter's SQL condition. One
 * statement with `(@x IS NULL OR col = @x)` would read every row of the table on every call: SQLite
 * cannot use an index for a condition that may be switched off.
 */
export function filteredList<K extends string>(
  db: Database,
  build: (where: string) => string,
  terms: Readonly<Record<K, FilterTerm>>,
): (params: { readonly [P in K]?: string | null | undefined }) => unknown[] {
  const made = new Map<string, Statement>();
  const names = Object.keys(terms) as K[];
  return (params) => {
    const conditions: string[] = [];
    const bound: Record<string, string> = {};
    for (const name of names) {
      const value = params[name];
      if (value === null || value === undefined) continue;
      const term = terms[name];
      if (typeof term === 'string') {
        conditions.push(term);
        bound[name] = value;
      } else conditions.push(term(value));
    }
    const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
    let statement = made.get(where);
    if (statement === undefined) {
      statement = db.prepare(build(where));
      made.set(where, statement);
    }
    return statement.all(bound);
  };
}

/**
 * The statuses of a `statusFilter` text as an SQL condition written out (`status = 'a' OR …`), which
 * SQLite can match to a partial index such as the one on unfinished turns; `inSet` cannot be.
 */
export function statusIn(set: string): string {
  const statuses = set.split(',').filter((s) => s !== '');
  if (!statuses.every((s) => /^[a-z_]+$/.test(s))) throw new InputError(`Not a status list: ${set}.`);
  if (statuses.length === 0) return '0';
  return `(${statuses.map((s) => `status = '${s}'`).join(' OR ')})`;
}

/** Reads one row by id through `statement` and maps it; undefined when there is none. */
export function rowReader<Row, T>(statement: Statement, map: (row: Row) => T): (id: string) => T | undefined {
  return (id) => {
    const row = statement.get(id) as Row | undefined;
    return row === undefined ? undefined : map(row);
  };
}

/** Wraps a reader so that a missing record is a StoreNotFoundError naming `kind`. */
export function mustRead<T>(kind: string, read: (id: string) => T | undefined): (id: string) => T {
  return (id) => {
    const found = read(id);
    if (found === undefined) throw new StoreNotFoundError(kind, id);
    return found;
  };
}

/** The caller's id (non-blank, whole characters, not yet taken), or a fresh one when none is given. */
export function pickId(
  given: string | undefined,
  fresh: () => string,
  kind: string,
  taken: (id: string) => unknown,
): string {
  if (given === undefined) return fresh();
  const id = requireText(given, `A ${kind} id`);
  // SQLite keeps a lone surrogate as bytes that read back as three U+FFFD: the record would come
  // back under an id that finds nothing, so its turns and messages could never be reached again.
  const half = id.search(/\p{Cs}/u);
  if (half >= 0) {
    throw new InputError(
      `A ${kind} id must be whole characters, but ${JSON.stringify(id)} holds half of a character ` +
        `(a lone UTF-16 surrogate at position ${half}), which the store cannot keep as given; ` +
        'remove it, or pass the whole character.',
    );
  }
  if (taken(id) !== undefined) throw idTaken(kind, id);
  return id;
}

/** The refusal of a record whose caller-chosen id another record already has. */
export function idTaken(kind: string, id: string): InputError {
  return new InputError(
    `A ${kind} with id ${JSON.stringify(id)} already exists; choose another id or leave it out.`,
  );
}

/** The statuses as ",a,b," text for `inSet`. */
export function statusSet(statuses: readonly string[]): string {
  return `,${statuses.join(',')},`;
}

/** SQL: true when the row's `status` is in the ",a,b," text bound to `param`. */
export function inSet(param: string): string {
  return `instr(${param}, ',' || status || ',') > 0`;
}
