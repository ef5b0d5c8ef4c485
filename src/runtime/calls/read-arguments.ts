import { isPlainObject, type JsonObject } from '../../core/json.js';
import { nestsTooDeep } from '../../core/json-depth.js';

/** The outcome of reading a call's arguments. */
export type ReadArguments =
  | { readonly ok: true; readonly args: JsonObject; readonly recovered: boolean }
  | { readonly ok: false; readonly detail: string; readonly tooDeep?: true };

const FENCE = /^```[\w-]*\s*\n?([\s\S]*?)\n?```\s*$/;

/**
 * Reads the arguments a model sent for a call. Accepts a JSON object, and recovers — once — the two
 * slips models make: the object wrapped in a Markdown code fence, and the object encoded twice (a JSON
 * string whose content is the object). Empty text means no arguments. Arguments nested deeper than
 * `MAX_JSON_DEPTH` are refused (`tooDeep`).
 */
export function readArguments(raw: string | JsonObject): ReadArguments {
  if (typeof raw !== 'string') {
    if (nestsTooDeep(raw)) return { ok: false, detail: 'the arguments nest too deep', tooDeep: true };
    return { ok: true, args: raw, recovered: false };
  }
  let text = raw.trim();
  if (text === '') return { ok: true, args: {}, recovered: false };
  let recovered = false;
  const fenced = FENCE.exec(text);
  if (fenced) {
    text = (fenced[1] ?? '').trim();
    recovered = true;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
      recovered = true;
    } catch {
      return { ok: false, detail: 'the arguments are a JSON string, not an object' };
    }
  }
  if (value === null && text === 'null') return { ok: true, args: {}, recovered: true };
  if (!isPlainObject(value))
    return { ok: false, detail: `the arguments are ${kindOf(value)}, not an object` };
  // JSON.parse reads any depth; what walks or writes the value later (the store, a provider's SDK) does not.
  if (nestsTooDeep(value)) return { ok: false, detail: 'the arguments nest too deep', tooDeep: true };
  return { ok: true, args: value as JsonObject, recovered };
}

/** What a JSON value that is not an object is, in words: null, an array, a number, a boolean. */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
