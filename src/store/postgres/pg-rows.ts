import { InputError } from '../../core/errors.js';
import type { FilterTerm } from '../rows.js';

/**
 * A WHERE clause from only the filters a caller gives (each term's SQL with its `@parameter`, or SQL
 * written from the value itself), and the values bound by name.
 */
export function whereOf<K extends string>(
  terms: Readonly<Record<K, FilterTerm>>,
  params: { readonly [P in K]?: string | null | undefined },
): { where: string; bound: Record<string, string> } {
  const conditions: string[] = [];
  const bound: Record<string, string> = {};
  for (const name of Object.keys(terms) as K[]) {
    const value = params[name];
    if (value === null || value === undefined) continue;
    const term = terms[name];
    if (typeof term === 'string') {
      conditions.push(term);
      bound[name] = value;
    } else conditions.push(term(value));
  }
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, bound };
}

/** A `statusFilter` text (",a,b,") as an SQL condition written out, `status IN ('a', 'b')`. */
export function statusesIn(set: string): string {
  const statuses = set.split(',').filter((s) => s !== '');
  if (!statuses.every((s) => /^[a-z_]+$/.test(s))) throw new InputError(`Not a status list: ${set}.`);
  if (statuses.length === 0) return 'false';
  return `status IN (${statuses.map((s) => `'${s}'`).join(', ')})`;
}

/** A row limit for SQL: NULL (no limit) when absent, checked as SQLite's store checks it. */
export function pgLimit(limit: number): number | null {
  return limit < 0 ? null : limit;
}
