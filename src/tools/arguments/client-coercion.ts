import type { JsonObject, JsonValue } from '../../core/json.js';
import { isPlainObject } from '../../core/json.js';
import type { ArgumentProblem } from './argument-problem.js';
import { looksLikeJsonContainer, readJsonText } from './json-text.js';
import { resolveLocalRef } from './schema-pointer.js';
import { spelledNumber } from './spelled-number.js';

const NON_STRING_KINDS = ['integer', 'number', 'boolean', 'array', 'object'] as const;
type Kind = (typeof NON_STRING_KINDS)[number];

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

/**
 * The value `text` spells that every declaration of the key (its kinds, one list each) takes; undefined
 * when it spells none (it is left as text). A type list is read whole: `["integer", "number"]` takes 1.5.
 */
function converted(key: string, text: string, declared: readonly (readonly Kind[])[]): Converted | undefined {
  const number = spelledNumber(text);
  if (number !== undefined) {
    // An integer declaration takes only whole-number text; a type list is read whole.
    const takes = (kinds: readonly Kind[]) =>
      kinds.includes('number') || (number.whole && kinds.includes('integer'));
    return declared.every(takes) ? { value: number.value } : undefined;
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
    return { problem: { path: key, code: 'invalid_json', message: reading.problem } };
  }
  const decoded = reading.value;
  const kind = Array.isArray(decoded) ? 'array' : isPlainObject(decoded) ? 'object' : undefined;
  return kind !== undefined && declared.every((kinds) => kinds.includes(kind))
    ? { value: decoded }
    : undefined;
}

/** Most `$ref`s and `allOf` levels followed to find an object's declared properties. */
const MAX_ROOT_DEPTH = 4;
/** Most levels of nested objects and lists read. */
const MAX_NESTING = 32;

/** The `properties` maps that declare an object's keys: the node's own, behind its `$ref`, in its `allOf`. */
function declaredProperties(node: unknown, root: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const add = (at: unknown, depth: number): void => {
    if (!isPlainObject(at) || depth > MAX_ROOT_DEPTH) return;
    if (isPlainObject(at.properties)) found.push(at.properties);
    if (typeof at.$ref === 'string') add(resolveLocalRef(root, at.$ref), depth + 1);
    if (Array.isArray(at.allOf)) for (const branch of at.allOf) add(branch, depth + 1);
  };
  add(node, 0);
  return found;
}

/** The node a schema stands for once its local `$ref`s are followed. */
function followed(node: unknown, root: unknown): unknown {
  let at = node;
  for (let i = 0; i < MAX_ROOT_DEPTH && isPlainObject(at) && typeof at.$ref === 'string'; i++) {
    at = resolveLocalRef(root, at.$ref);
  }
  return at;
}

/** The one declaration of `key` among `declared`, when there is exactly one. */
function soleDeclaration(declared: readonly Record<string, unknown>[], key: string): unknown {
  const with_ = declared.filter((properties) => Object.hasOwn(properties, key));
  return with_.length === 1 ? with_[0]?.[key] : undefined;
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
 * The arguments as an MCP client sends them: each text value (an argument declared at the root, behind
 * its `$ref` or in its `allOf`, and likewise a key of a nested object or an item of a list, at any depth)
 * whose declaration takes no string becomes the integer or number it spells, the boolean it names, or the
 * array or object its JSON text spells (decoded once, a code fence allowed), when every declaration of it
 * takes that value (a type list counts each of its types).
 * Anything else is untouched; the input is never changed (a copy is returned when something is). An
 * object or list sent as JSON text that does not parse is named in `unreadable`, with where it breaks.
 */
export function readAsClientSends(args: JsonObject, schema: unknown): ClientReading {
  const declared = declaredProperties(schema, schema);
  if (declared.length === 0) return { args, unreadable: [] };
  const unreadable: ArgumentProblem[] = [];
  const read = readObject(args, declared, { root: schema, unreadable }, '', 0);
  return { args: read, unreadable };
}

interface Reading {
  readonly root: unknown;
  readonly unreadable: ArgumentProblem[];
}

/** A text value as the client sends it, given the kinds its declarations take; its problem recorded. */
function readText(
  reading: Reading,
  path: string,
  text: string,
  kinds: (readonly Kind[])[] | undefined,
): JsonValue {
  if (kinds === undefined) return text;
  const read = converted(path, text, kinds);
  if (read === undefined) return text;
  if ('problem' in read) {
    reading.unreadable.push(read.problem);
    return text;
  }
  return read.value;
}

/** An object's values as the client sends them, each key read by its declarations. */
function readObject(
  value: JsonObject,
  declared: readonly Record<string, unknown>[],
  reading: Reading,
  path: string,
  depth: number,
): JsonObject {
  let copy: JsonObject | undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    let next = typeof item === 'string' ? readText(reading, at, item, kindsOfKey(declared, key)) : item;
    const only = soleDeclaration(declared, key);
    if (only !== undefined && typeof next === 'object' && next !== null) {
      next = readNested(next, only, reading, at, depth + 1);
    }
    if (next !== item) {
      copy ??= { ...value };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

/** A nested object or list as the client sends it: its keys and items read by its declaration. */
function readNested(
  value: JsonValue,
  node: unknown,
  reading: Reading,
  path: string,
  depth: number,
): JsonValue {
  if (depth > MAX_NESTING) return value;
  if (isPlainObject(value)) {
    const declared = declaredProperties(node, reading.root);
    return declared.length === 0 ? value : readObject(value, declared, reading, path, depth);
  }
  if (!Array.isArray(value)) return value;
  const target = followed(node, reading.root);
  const items = isPlainObject(target) && isPlainObject(target.items) ? target.items : undefined;
  if (items === undefined) return value;
  const kinds = nonStringKinds(followed(items, reading.root));
  let copy: JsonValue[] | undefined;
  value.forEach((item, i) => {
    const at = `${path}[${i}]`;
    let next = typeof item === 'string' ? readText(reading, at, item, kinds && [kinds]) : item;
    if (typeof next === 'object' && next !== null) next = readNested(next, items, reading, at, depth + 1);
    if (next !== item) {
      copy ??= value.slice();
      copy[i] = next;
    }
  });
  return copy ?? value;
}

/** The arguments as an MCP client sends them (see {@link readAsClientSends}). */
export function asClientSends(args: JsonObject, schema: unknown): JsonObject {
  return readAsClientSends(args, schema).args;
}
