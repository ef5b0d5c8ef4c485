import { isPlainObject, type JsonObject, type JsonValue } from '../core/json.js';
import { type LiftedArgument, renderArgumentPath } from './lifted-argument.js';
import type { JsonType } from './profile.js';
import { put } from './schema-merge.js';

/** An argument that should have been JSON text and could not be read. */
export interface LiftFailure {
  /** Where, e.g. `options` or `steps[2].config`. */
  readonly argument: string;
  /** The JSON reader's own account of what is wrong. */
  readonly detail: string;
}

/** A call's arguments with every lifted argument decoded, or the arguments that could not be. */
export type DecodedArguments =
  | { readonly ok: true; readonly arguments: JsonObject }
  | { readonly ok: false; readonly failures: readonly LiftFailure[] };

/**
 * Turns the JSON text the model sent for lifted arguments back into values, so the call can be
 * checked against the DECLARED schema and invoked. A value that is already structured passes
 * through untouched (a caller that is not a model may send one); the input is never mutated.
 */
export function decodeLiftedArguments(args: JsonObject, lifted: readonly LiftedArgument[]): DecodedArguments {
  if (lifted.length === 0) return { ok: true, arguments: args };
  const failures: LiftFailure[] = [];
  let decoded: JsonValue = args;
  for (const lift of lifted) decoded = decodeAt(decoded, lift, 0, [], failures);
  return failures.length === 0 ? { ok: true, arguments: decoded as JsonObject } : { ok: false, failures };
}

function decodeAt(
  value: JsonValue,
  lift: LiftedArgument,
  at: number,
  indexes: number[],
  failures: LiftFailure[],
): JsonValue {
  const step = lift.steps[at];
  if (step === undefined) {
    if (typeof value !== 'string') return value;
    const read = readJsonText(value, lift.takes);
    if (read.ok) return read.value;
    failures.push({ argument: renderArgumentPath(lift.steps, indexes), detail: read.detail });
    return value;
  }
  if (step.kind === 'element') {
    if (!Array.isArray(value)) return value;
    let copy: JsonValue[] | undefined;
    for (let i = 0; i < value.length; i += 1) {
      const element = value[i] as JsonValue;
      const next = decodeAt(element, lift, at + 1, [...indexes, i], failures);
      if (next !== element) {
        copy ??= value.slice();
        copy[i] = next;
      }
    }
    return copy ?? value;
  }
  if (!isPlainObject(value) || !Object.hasOwn(value, step.name)) return value;
  const child = value[step.name] as JsonValue;
  const next = decodeAt(child, lift, at + 1, indexes, failures);
  if (next === child) return value;
  const copy: JsonObject = {};
  for (const key in value) put(copy, key, key === step.name ? next : value[key]);
  return copy;
}

const FENCE = /^```[\w-]*[ \t]*\n?([\s\S]*?)\n?```$/;

type Read =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly detail: string };

/**
 * Reads one lifted argument's text. Tolerates a Markdown code fence and JSON encoded twice. Where
 * the declared schema also takes a plain string, text that is not JSON (or whose JSON the schema
 * does not take, or a number JavaScript cannot hold exactly) stays the string it is.
 */
export function readJsonText(text: string, takes: readonly JsonType[] | undefined): Read {
  const takesText = takes === undefined || takes.includes('string');
  let body = text.trim();
  const fenced = FENCE.exec(body);
  if (fenced) body = (fenced[1] ?? '').trim();
  if (body === '') return takesText ? { ok: true, value: text } : { ok: false, detail: 'the text is empty' };
  let value: JsonValue;
  try {
    value = JSON.parse(body) as JsonValue;
  } catch (error) {
    return takesText ? { ok: true, value: text } : { ok: false, detail: (error as Error).message };
  }
  if (typeof value === 'string' && !takesText) {
    try {
      value = JSON.parse(value) as JsonValue;
    } catch {
      // A JSON string where the schema takes none: the declared check will say so.
    }
  }
  if (!takesText) return { ok: true, value };
  return accepts(takes, value) && !inexact(body, value) ? { ok: true, value } : { ok: true, value: text };
}

const INTEGER_TEXT = /^-?\d+$/;

/** True for a number its text does not say exactly (an id past 2^53, say): the text is kept instead. */
function inexact(body: string, value: JsonValue): boolean {
  if (typeof value !== 'number') return false;
  if (!Number.isFinite(value)) return true;
  return !Number.isSafeInteger(value) && INTEGER_TEXT.test(body) && BigInt(body) !== BigInt(value);
}

function accepts(takes: readonly JsonType[] | undefined, value: JsonValue): boolean {
  if (takes === undefined) return true;
  if (value === null) return takes.includes('null');
  if (Array.isArray(value)) return takes.includes('array');
  if (typeof value === 'number')
    return takes.includes('number') || (Number.isInteger(value) && takes.includes('integer'));
  return takes.includes(typeof value as JsonType);
}

/** What to tell the model when lifted arguments could not be read (the call was not made). */
export function describeLiftFailures(failures: readonly LiftFailure[]): string {
  const lines = failures.map((f) => `- \`${f.argument}\`: ${f.detail}`);
  const several = failures.length > 1;
  return [
    `The call was not made: ${several ? 'these arguments take' : 'this argument takes'} JSON text, and ${several ? 'they' : 'it'} could not be read.`,
    ...lines,
    'Send the call again with valid JSON text there.',
  ].join('\n');
}
