import type { JsonValue } from '../../core/json.js';
import { nestsTooDeep, tooDeepWords } from '../../core/json-depth.js';
import { describeJsonSyntax, type JsonSyntaxError, jsonSyntaxError } from '../../core/json-syntax-error.js';

/**
 * What reading a JSON text gave: the value, or why it cannot be used, as an argument problem says it
 * (`problem`): where and why the text is not JSON (`error`), or that it nests too deep to be read.
 */
export type JsonTextReading =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly problem: string; readonly error?: JsonSyntaxError };

/** The JSON body of a text: trimmed, and without a surrounding Markdown code fence (```json … ```). */
export function jsonBody(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('```')) return trimmed;
  const firstBreak = trimmed.indexOf('\n');
  if (firstBreak < 0) return trimmed;
  const inner = trimmed.slice(firstBreak + 1);
  const close = inner.lastIndexOf('```');
  return (close < 0 ? inner : inner.slice(0, close)).trim();
}

/** True when a text is plainly an attempt at a JSON object or list (it opens with `{`, `[` or a code fence). */
export function looksLikeJsonContainer(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
    return c === '{' || c === '[' || text.startsWith('```', i);
  }
  return false;
}

/**
 * Reads a JSON text (fences allowed); a failure carries the decoder's own detail: what and where. A
 * value nested deeper than `MAX_JSON_DEPTH` is refused: whatever walks or writes it later would not cope.
 */
export function readJsonText(text: string): JsonTextReading {
  const body = jsonBody(text);
  let value: JsonValue;
  try {
    value = JSON.parse(body) as JsonValue;
  } catch {
    const error = jsonSyntaxError(body) ?? {
      what: 'the text is not JSON',
      offset: 0,
      line: 1,
      column: 1,
      after: '',
    };
    return { ok: false, error, problem: describeJsonSyntaxError(error) };
  }
  if (nestsTooDeep(value))
    return { ok: false, problem: `holds JSON text with ${tooDeepWords()}; send it flatter` };
  return { ok: true, value };
}

/** Decodes a value carried as JSON text; anything else, and text that is not JSON, comes back unchanged. */
export function decodeJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const body = jsonBody(value);
  if (body === '') return value;
  const reading = readJsonText(body);
  return reading.ok ? reading.value : value;
}

/** One sentence saying where a JSON text breaks, for an argument problem. */
export function describeJsonSyntaxError(error: JsonSyntaxError): string {
  return `is not valid JSON: ${describeJsonSyntax(error)}`;
}
