import type { JsonObject, JsonValue } from '../core/json.js';
import { isPlainObject } from '../core/json.js';
import type { ArgumentProblem } from './argument-problem.js';
import { describeJsonSyntaxError, looksLikeJsonContainer, readJsonText } from './json-text.js';
import { resolveLocalRef } from './schema-pointer.js';

const NON_STRING_KINDS = ['integer', 'number', 'boolean', 'array', 'object'] as const;
type Kind = (typeof NON_STRING_KINDS)[number];

const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The kinds a property takes when it takes no string at all (no union, no `$ref`), else undefined. */
function nonStringKinds(property: unknown): readonly Kind[] | undefined {
  if (!isPlainObject(property)) return undefined;
  if ('anyOf' in property || 'oneOf' in property || 'allOf' in property || '$ref' in property)
    return undefined;
  const declared = property.type;
  const types = typeof declared === 'string' ? [declared] : Array.isArray(declared) ? declared : undefined;
  if (types === undefined || types.includes('string')) return undefined;
  const kinds = NON_STRING_KINDS.filter((k) => types.includes(k));
  return kinds.length === 0 ? undefined : kinds;
}

/** What a text argument reads as: the value it spells, or why its JSON text does not parse. */
type Converted = { readonly value: JsonValue } | { readonly problem: ArgumentProblem };

/** Whether a declaration taking `kinds` takes the number `text` spells (an integer only as integer text). */
function takesNumber(kinds: readonly Kind[], text: string): boolean {
  if (kinds.includes('number')) return true;
  return kinds.includes('integer') && INTEGER_TEXT.test(text) && Number.isSafeInteger(Number(text));
}

/**
 * The value `text` spells that every declaration of the key (its kinds, one list each) takes; undefined
 * when it spells none (it is left as text). A type list is read whole: `["integer", "number"]` takes 1.5.
 */
function converted(key: string, text: string, declared: readonly (readonly Kind[])[]): Converted | undefined {
  if (NUMBER_TEXT.test(text)) {
    return declared.every((kinds) => takesNumber(kinds, text)) ? { value: Number(text) } : undefined;
  }
  const word = text.trim();
  if (word === 'true' || word === 'false') {
    return declared.every((kinds) => kinds.includes('boolean')) ? { value: word === 'true' } : undefined;
  }
  // Text opening with `{`, `[` or a code fence is always an attempt at the object or list (a fence is
  // allowed, as for in-process tools): when it is not JSON, the decoder's detail says where it breaks.
  const container = (kinds: readonly Kind[]) => kinds.includes('array') || kinds.includes('object');
  if (!looksLikeJsonContainer(text) || !declared.every(container)) return undefined;
  const reading = readJsonText(text);
  if (!reading.ok) {
    return { problem: { path: key, code: 'invalid_json', message: describeJsonSyntaxError(reading.error) } };
  }
  const decoded = reading.value;
  const kind = Array.isArray(decoded) ? 'array' : isPlainObject(decoded) ? 'object' : undefined;
  return kind !== undefined && declared.every((kinds) => kinds.includes(kind))
    ? { value: decoded }
    : undefined;
}

/** Most root `$ref`s and `allOf` levels followed to find the top-level properties. */
const MAX_ROOT_DEPTH = 4;

/** The `properties` maps that declare top-level arguments: the root's, behind its `$ref`, in its `allOf`. */
function rootProperties(schema: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const add = (node: unknown, depth: number): void => {
    if (!isPlainObject(node) || depth > MAX_ROOT_DEPTH) return;
    if (isPlainObject(node.properties)) found.push(node.properties);
    if (typeof node.$ref === 'string') add(resolveLocalRef(schema, node.$ref), depth + 1);
    if (Array.isArray(node.allOf)) for (const branch of node.allOf) add(branch, depth + 1);
  };
  add(schema, 0);
  return found;
}

/** The non-string kinds each declaration of `key` gives it, one list each; undefined when one takes text. */
function kindsOfKey(
  declared: readonly Record<string, unknown>[],
  key: string,
): (readonly Kind[])[] | undefined {
  const found: (readonly Kind[])[] = [];
  for (const properties of declared) {
    if (!Object.hasOwn(properties, key)) continue;
    const own = nonStringKinds(properties[key]);
    if (own === undefined) return undefined;
    found.push(own);
  }
  return found.length === 0 ? undefined : found;
}

/** The arguments as an MCP client sends them, and the text arguments that are broken JSON. */
export interface ClientReading {
  readonly args: JsonObject;
  /** One `invalid_json` problem per object or list argument sent as JSON text that does not parse. */
  readonly unreadable: readonly ArgumentProblem[];
}

/**
 * The arguments as an MCP client sends them: each top-level text argument (declared at the root, behind
 * its `$ref` or in its `allOf`) whose property takes no string becomes the integer or number it spells,
 * the boolean it names, or the array or object its JSON text spells (decoded once, a code fence allowed),
 * when every declaration of it takes that value (a type list counts each of its types).
 * Anything else is untouched; the input is never changed (a copy is returned when something is). An
 * object or list sent as JSON text that does not parse is named in `unreadable`, with where it breaks.
 */
export function readAsClientSends(args: JsonObject, schema: unknown): ClientReading {
  const declared = rootProperties(schema);
  if (declared.length === 0) return { args, unreadable: [] };
  let copy: JsonObject | undefined;
  const unreadable: ArgumentProblem[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') continue;
    const kinds = kindsOfKey(declared, key);
    if (kinds === undefined) continue;
    const read = converted(key, value, kinds);
    if (read === undefined) continue;
    if ('problem' in read) {
      unreadable.push(read.problem);
      continue;
    }
    copy ??= { ...args };
    copy[key] = read.value;
  }
  return { args: copy ?? args, unreadable };
}

/** The arguments as an MCP client sends them (see {@link readAsClientSends}). */
export function asClientSends(args: JsonObject, schema: unknown): JsonObject {
  return readAsClientSends(args, schema).args;
}
