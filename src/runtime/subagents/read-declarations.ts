import { isPlainObject } from '../../core/json.js';
import { describeValue, looksLikeJsonContainer, readJsonText } from '../../tools/index.js';

/** What reading one value gave: the value, or one sentence saying why it cannot be used. */
export type Reading<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly why: string };

const ok = <T>(value: T): Reading<T> => ({ ok: true, value });
const bad = (why: string): Reading<never> => ({ ok: false, why });

/**
 * Reads a list a model may send as a list, as the JSON text of a list, or as one plain text (a list of
 * that one item); `null` and blank text read as an empty list.
 */
export function readList(value: unknown): Reading<unknown[]> {
  if (value === null || value === undefined) return ok([]);
  if (Array.isArray(value)) return ok(value);
  if (typeof value !== 'string') return bad(`is ${describeValue(value)}, not a list`);
  if (value.trim() === '') return ok([]);
  if (!looksLikeJsonContainer(value)) return ok([value]);
  const reading = readJsonText(value);
  if (reading.ok && Array.isArray(reading.value)) return ok(reading.value);
  if (reading.ok && isPlainObject(reading.value)) return ok([reading.value]);
  return bad('is text that opens like JSON but is not a readable JSON list');
}

/** Reads a list of paths (each non-blank text). */
export function readPaths(value: unknown): Reading<string[]> {
  const list = readList(value);
  if (!list.ok) return list;
  const out: string[] = [];
  for (const [i, item] of list.value.entries()) {
    if (typeof item !== 'string') return bad(`has item ${i + 1} that is ${describeValue(item)}, not a path`);
    if (item.trim() === '') return bad(`has item ${i + 1} that is blank`);
    out.push(item.trim());
  }
  return ok(out);
}

/** Reads a declaration that must be text; `null` reads as absent. */
export function readText(value: unknown): Reading<string | undefined> {
  if (value === null || value === undefined) return ok(undefined);
  if (typeof value !== 'string') return bad(`is ${describeValue(value)}, not text`);
  const trimmed = value.trim();
  return ok(trimmed === '' ? undefined : trimmed);
}

/** Reads one item of `tasks`: a contract object, the JSON text of one, or plain text (the task alone). */
export function readLeafItem(value: unknown): Reading<Record<string, unknown>> {
  if (isPlainObject(value)) return ok(value);
  if (typeof value === 'string') {
    if (!looksLikeJsonContainer(value)) return ok({ task: value });
    const reading = readJsonText(value);
    if (reading.ok && isPlainObject(reading.value)) return ok(reading.value);
    return bad('is text that opens like JSON but is not a readable JSON object');
  }
  return bad(`is ${describeValue(value)}, not an object with a task and its contract`);
}
