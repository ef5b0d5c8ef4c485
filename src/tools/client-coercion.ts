import type { JsonObject, JsonValue } from '../core/json.js';
import { isPlainObject } from '../core/json.js';
import type { ArgumentProblem } from './argument-problem.js';
import { describeJsonSyntaxError, looksLikeJsonContainer, readJsonText } from './json-text.js';
import { resolveLocalRef } from './schema-pointer.js';

const NON_STRING_KINDS = ['integer', 'number', 'boolean', 'array', 'object'] as const;
type Kind = (typeof NON_STRING_KINDS)[number];

const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** The kind a property takes when it takes no string at all (no union, no `$ref`), else undefined. */
function nonStringKind(property: unknown): Kind | undefined {
  if (!isPlainObject(property)) return undefined;
  if ('anyOf' in property || 'oneOf' in property || 'allOf' in property || '$ref' in property)
    return undefined;
  const declared = property.type;
  const types = typeof declared === 'string' ? [declared] : Array.isArray(declared) ? declared : undefined;
  if (types === undefined || types.includes('string')) return undefined;
  return NON_STRING_KINDS.find((k) => types.includes(k));
}

/** What a text argument reads as: the value it spells, or why its JSON text does not parse. */
type Converted = { readonly value: JsonValue } | { readonly problem: ArgumentProblem };

function number(text: string, kind: 'integer' | 'number'): JsonValue | undefined {
  if (kind === 'number') return NUMBER_TEXT.test(text) ? Number(text) : undefined;
  if (!INTEGER_TEXT.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The value `text` spells as `kind`; undefined when it spells none (it is left as text). */
function converted(key: string, text: string, kind: Kind): Converted | undefined {
  if (kind === 'integer' || kind === 'number') {
    const n = number(text, kind);
    return n === undefined ? undefined : { value: n };
  }
  if (kind === 'boolean') {
    const word = text.trim();
    return word === 'true' || word === 'false' ? { value: word === 'true' } : undefined;
  }
  // Text opening with `{`, `[` or a code fence is always an attempt at the object or list (a fence is
  // allowed, as for in-process tools): when it is not JSON, the decoder's detail says where it breaks.
  if (!looksLikeJsonContainer(text)) return undefined;
  const reading = readJsonText(text);
  if (!reading.ok) {
    return { problem: { path: key, code: 'invalid_json', message: describeJsonSyntaxError(reading.error) } };
  }
  const decoded = reading.value;
  return (kind === 'array' ? Array.isArray(decoded) : isPlainObject(decoded))
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

/** The one non-string kind every declaration of `key` gives it, else undefined. */
function kindOfKey(declared: readonly Record<string, unknown>[], key: string): Kind | undefined {
  let kind: Kind | undefined;
  for (const properties of declared) {
    if (!Object.hasOwn(properties, key)) continue;
    const own = nonStringKind(properties[key]);
    if (own === undefined || (kind !== undefined && own !== kind)) return undefined;
    kind = own;
  }
  return kind;
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
 * the boolean it names, or the array or object its JSON text spells (decoded once, a code fence allowed).
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
    const kind = kindOfKey(declared, key);
    if (kind === undefined) continue;
    const read = converted(key, value, kind);
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
