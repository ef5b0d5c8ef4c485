import { isPlainObject } from '../core/json.js';
import { isPortableType, type JsonType } from './profile.js';

type Schema = Record<string, unknown>;

/** Looks up a local `$ref` (the walk's cached look-up). */
export type Resolve = (ref: string) => unknown;

/** Follows `$ref`s (a few hops) so a summary describes what the reference points at. */
export function deref(resolve: Resolve, node: unknown): unknown {
  let at = node;
  for (let hop = 0; hop < 8 && isPlainObject(at) && typeof at.$ref === 'string'; hop += 1) {
    const target = resolve(at.$ref);
    if (!isPlainObject(target)) return at;
    // Summaries only read what they follow, so a bare reference needs no merged copy.
    at = onlyRef(at) ? target : { ...target, ...withoutRef(at) };
  }
  return at;
}

/** True when `node`'s only key is `$ref`. */
function onlyRef(node: Schema): boolean {
  for (const key in node) if (key !== '$ref') return false;
  return true;
}

function withoutRef(node: Schema): Schema {
  const { $ref: _ref, ...rest } = node;
  return rest;
}

/** The alternatives of an `anyOf` (or `oneOf`) node, if it is one. */
export function branchesOf(node: Schema): unknown[] | undefined {
  if (Array.isArray(node.anyOf)) return node.anyOf;
  return Array.isArray(node.oneOf) ? node.oneOf : undefined;
}

function declaredTypes(node: Schema): string[] | undefined {
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((t): t is string => typeof t === 'string');
  // The walk reads an untyped map as an object too (so its JSON text is refused when it is not one).
  if (isPlainObject(node.properties) || isPlainObject(node.additionalProperties)) return ['object'];
  if (isPlainObject(node.patternProperties)) return ['object'];
  if (node.const !== undefined)
    return [node.const === null ? 'null' : Array.isArray(node.const) ? 'array' : typeof node.const];
  if (node.items !== undefined) return ['array'];
  return undefined;
}

function isJsonType(t: string): t is JsonType {
  return t === 'null' || isPortableType(t);
}

/**
 * The JSON types a declared node accepts at its top level (its `type` and `nullable`, or the union
 * of its `anyOf` / `oneOf` branches); `undefined` when it accepts any value or nothing says.
 */
export function takesOf(resolve: Resolve, raw: unknown, depth = 0): readonly JsonType[] | undefined {
  return takesOfResolved(resolve, deref(resolve, raw), depth);
}

/** `takesOf` for a node whose own `$ref`s are already followed (see `deref`). */
export function takesOfResolved(resolve: Resolve, node: unknown, depth = 0): readonly JsonType[] | undefined {
  if (!isPlainObject(node) || depth > 8) return undefined;
  const branches = branchesOf(node);
  const own = declaredTypes(node);
  if (own === undefined && branches !== undefined) {
    const all = new Set<JsonType>();
    for (const branch of branches) {
      const types = takesOf(resolve, branch, depth + 1);
      if (types === undefined) return undefined;
      for (const t of types) all.add(t);
    }
    return [...all];
  }
  if (own === undefined && branches === undefined && Array.isArray(node.allOf)) {
    return allOfTakes(resolve, node.allOf, depth);
  }
  if (own === undefined || own.length === 0 || !own.every(isJsonType)) return undefined;
  const known = own as JsonType[];
  // OpenAPI's `nullable: true` (which validators such as Ajv honour) also takes null.
  return node.nullable === true && !known.includes('null') ? [...known, 'null'] : known;
}

/** What every `allOf` branch that says takes (an integer is a number); undefined when none says. */
function allOfTakes(resolve: Resolve, branches: unknown[], depth: number): readonly JsonType[] | undefined {
  let found: JsonType[] | undefined;
  for (const branch of branches) {
    const types = takesOf(resolve, branch, depth + 1);
    if (types === undefined) continue;
    if (found === undefined) {
      found = [...types];
      continue;
    }
    found = found.flatMap((t): JsonType[] => {
      if (types.includes(t)) return [t];
      if (t === 'number' && types.includes('integer')) return ['integer'];
      return t === 'integer' && types.includes('number') ? ['integer'] : [];
    });
  }
  return found;
}

const ARTICLE: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  null: 'null',
};

const MAX_KEYS = 8;

/** A short phrase for people (and models) saying what a declared node holds. */
export function summarize(resolve: Resolve, raw: unknown, depth = 0): string {
  const node = deref(resolve, raw);
  if (!isPlainObject(node)) return 'any JSON value';
  const branches = branchesOf(node);
  const types = declaredTypes(node);
  if (types === undefined && branches !== undefined && branches.length > 0 && depth < 2) {
    return [...new Set(branches.map((b) => summarize(resolve, b, depth + 1)))].join(' or ');
  }
  if (types === undefined) return 'any JSON value';
  return types.map((t) => summarizeType(resolve, node, t, depth)).join(' or ');
}

function summarizeType(resolve: Resolve, node: Schema, type: string, depth: number): string {
  if (type === 'object') {
    const props = isPlainObject(node.properties) ? Object.keys(node.properties) : [];
    if (props.length > 0) {
      const shown = props.slice(0, MAX_KEYS).join(', ');
      const more = props.length > MAX_KEYS ? ` and ${props.length - MAX_KEYS} more` : '';
      return `an object with keys ${shown}${more}`;
    }
    const values = node.additionalProperties;
    if (isPlainObject(values) && depth < 2) {
      return `an object mapping names to ${summarize(resolve, values, depth + 1)}`;
    }
    return 'an object';
  }
  if (type === 'array') {
    const items = node.items;
    if (isPlainObject(items) && Object.keys(items).length > 0 && depth < 2) {
      return `a list of items, each ${summarize(resolve, items, depth + 1)}`;
    }
    return 'a list';
  }
  return ARTICLE[type] ?? 'any JSON value';
}

/**
 * The schema offered in place of a node carried as JSON text: a string that says what to send.
 * `node` is the declared node with its own `$ref`s already followed (see `deref`).
 */
export function liftedSchema(resolve: Resolve, node: unknown): Schema {
  const own = isPlainObject(node) && typeof node.description === 'string' ? node.description.trim() : '';
  const none = isPlainObject(node) && branchesOf(node)?.length === 0 && declaredTypes(node) === undefined;
  // An empty anyOf / oneOf accepts nothing: the model is told so, not given a shape to send.
  const hint = none
    ? 'Its declared schema lists no choices, so no value fits: leave it out.'
    : `Send it as JSON text: ${summarize(resolve, node)}.`;
  const out: Schema = { type: 'string', description: sentences(own, hint) };
  if (isPlainObject(node) && typeof node.title === 'string') out.title = node.title;
  return out;
}

/** Two texts as sentences: `first` gets a full stop when it has no closing punctuation. */
export function sentences(first: string, second: string): string {
  if (first === '') return second;
  return CLOSING.includes(first[first.length - 1] as string) ? `${first} ${second}` : `${first}. ${second}`;
}

/** Characters that already close a sentence. */
const CLOSING = '.!?:;…)';
