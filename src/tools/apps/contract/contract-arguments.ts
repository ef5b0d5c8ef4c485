import type { ErrorObject, ValidateFunction } from 'ajv';
import type { JsonObject, JsonValue } from '../../../core/json.js';
import { isPlainObject } from '../../../core/json.js';
import type { ArgumentProblem, ProblemCode } from '../../arguments/argument-problem.js';
import { looksLikeJsonContainer, readJsonText } from '../../arguments/json-text.js';
import { foldedKey, keySpellings } from '../../arguments/key-spellings.js';
import { nearMiss } from '../../arguments/near-miss.js';
import { resolveLocalRef } from '../../arguments/schema-pointer.js';
import { spelledNumber } from '../../arguments/spelled-number.js';
import { yesOrNo } from '../../fields/yes-or-no.js';
import { compileDeclared } from './schema-drafts.js';

/** Most levels of nested objects and lists read, and of `$ref`s followed for one node. */
const MAX_NESTING = 32;
const MAX_REFS = 8;

/** A call's arguments as the contract names them, or what is wrong with them (per field). */
export type ContractReading =
  | { readonly ok: true; readonly args: JsonObject }
  | { readonly ok: false; readonly problems: readonly ArgumentProblem[] };

/** The boundary of one contract tool: reads a call's arguments, then checks them against the declared schema. */
export interface ContractBoundary {
  read(args: JsonObject): ContractReading;
}

/**
 * The boundary for a declared schema (compiled once): nested objects and lists sent as JSON text are
 * decoded (a syntax error names where, in the decoder's words); each key in camelCase, PascalCase or
 * snake_case (or any letter case that folds to one declared key alone) is read as the key the contract
 * declares, at every depth; a key an object does not declare, where the object is closed, is refused
 * with the keys it takes and the nearest one; then the whole is checked against the schema.
 */
export function contractBoundary(tool: string, schema: JsonObject): ContractBoundary {
  let validate: ValidateFunction | undefined;
  return {
    read(args) {
      const problems: ArgumentProblem[] = [];
      const read = readNode(args, schema, { root: schema, problems, tool }, '', 0);
      if (problems.length > 0) return { ok: false, problems };
      validate ??= compileDeclared(schema);
      if (!validate(read)) return { ok: false, problems: (validate.errors ?? []).map(problemOf) };
      return { ok: true, args: read as JsonObject };
    },
  };
}

interface Walk {
  readonly root: unknown;
  readonly problems: ArgumentProblem[];
  readonly tool: string;
}

/** The node a schema stands for once its local `$ref`s are followed. */
function followed(node: unknown, root: unknown): Record<string, unknown> | undefined {
  let at = node;
  for (let i = 0; i < MAX_REFS && isPlainObject(at) && typeof at.$ref === 'string'; i++) {
    at = resolveLocalRef(root, at.$ref);
  }
  return isPlainObject(at) ? at : undefined;
}

/** The types a node takes (from `type`, or what its keywords imply). */
function takes(node: Record<string, unknown>, type: string): boolean {
  const declared = node.type;
  if (typeof declared === 'string') return declared === type;
  if (Array.isArray(declared)) return declared.includes(type);
  if (type === 'object') return isPlainObject(node.properties);
  return type === 'array' && 'items' in node;
}

/** The branches a value could be read by: the node itself, or its union's branches. */
function branches(node: Record<string, unknown>, root: unknown): Record<string, unknown>[] {
  const union = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : undefined;
  if (union === undefined) return [node];
  return union.map((b) => followed(b, root)).filter((b) => b !== undefined);
}

function readNode(value: JsonValue, node: unknown, walk: Walk, path: string, depth: number): JsonValue {
  const at = followed(node, walk.root);
  if (at === undefined || depth > MAX_NESTING) return value;
  const options = branches(at, walk.root);
  if (typeof value === 'string' && looksLikeJsonContainer(value)) {
    const container = options.some((b) => takes(b, 'object') || takes(b, 'array'));
    if (!container || options.some((b) => takes(b, 'string') || b.type === undefined)) return value;
    const reading = readJsonText(value);
    if (!reading.ok) {
      walk.problems.push({ path, code: 'invalid_json', message: reading.problem });
      return value;
    }
    return readNode(reading.value, node, walk, path, depth);
  }
  if (typeof value === 'string') return spelled(value, options);
  if (Array.isArray(value)) {
    const items = options.map((b) => b.items).find((i) => i !== undefined && typeof i !== 'boolean');
    if (items === undefined) return value;
    return value.map((item, i) => readNode(item, items, walk, `${path}[${i}]`, depth + 1));
  }
  if (!isPlainObject(value)) return value;
  const objects = options.filter((b) => takes(b, 'object') && isPlainObject(b.properties));
  // A union's branch is picked by the keys sent: the first whose declared keys read them all.
  const chosen =
    objects.length <= 1
      ? objects[0]
      : (objects.find((b) => Object.keys(value).every((k) => declaredKey(k, b) !== undefined)) ?? undefined);
  if (chosen === undefined) return value;
  return readObject(value, chosen, walk, path, depth, objects.length <= 1);
}

/**
 * Text where every branch takes a boolean or a number (and none takes text): a yes/no word read as the
 * boolean it spells, a number written as text as that number; anything else is left for the check to name.
 */
function spelled(value: string, options: readonly Record<string, unknown>[]): JsonValue {
  if (options.length === 0 || options.some((b) => takes(b, 'string') || b.type === undefined)) return value;
  if (options.every((b) => takes(b, 'boolean'))) return yesOrNo(value) ?? value;
  const number = spelledNumber(value.trim());
  if (number === undefined) return value;
  return options.every((b) => takes(b, 'number') || (number.whole && takes(b, 'integer')))
    ? number.value
    : value;
}

/** Each declared key's spellings and its folded form, worked out once per `properties` object. */
interface KeyIndex {
  readonly bySpelling: Map<string, string | null>;
  readonly byFold: Map<string, string | null>;
}

const indexes = new WeakMap<object, KeyIndex>();

/** Adds `name` under `key`; a key two declared names share reads as neither (null). */
function index(map: Map<string, string | null>, key: string, name: string): void {
  const held = map.get(key);
  map.set(key, held === undefined || held === name ? name : null);
}

function keyIndex(properties: Record<string, unknown>): KeyIndex {
  let found = indexes.get(properties);
  if (found !== undefined) return found;
  found = { bySpelling: new Map(), byFold: new Map() };
  for (const name of Object.keys(properties)) {
    for (const spelling of keySpellings(name)) index(found.bySpelling, spelling, name);
    index(found.byFold, foldedKey(name), name);
  }
  indexes.set(properties, found);
  return found;
}

/** The declared key a sent key means in `node`: itself, one of its spellings, or the one key it folds to. */
function declaredKey(key: string, node: Record<string, unknown>): string | undefined {
  const properties = node.properties as Record<string, unknown>;
  if (Object.hasOwn(properties, key)) return key;
  const { bySpelling, byFold } = keyIndex(properties);
  const spelled = bySpelling.get(key);
  if (spelled !== undefined) return spelled ?? undefined;
  return byFold.get(foldedKey(key)) ?? undefined;
}

function readObject(
  value: Record<string, JsonValue>,
  node: Record<string, unknown>,
  walk: Walk,
  path: string,
  depth: number,
  refuseUnknown: boolean,
): JsonObject {
  const properties = node.properties as Record<string, unknown>;
  const closed = node.additionalProperties === false;
  const out: JsonObject = {};
  const spelledAs = new Map<string, string>();
  for (const [key, item] of Object.entries(value)) {
    const name = declaredKey(key, node);
    const where = path === '' ? (name ?? key) : `${path}.${name ?? key}`;
    if (name === undefined) {
      if (closed && refuseUnknown) walk.problems.push(unknownKey(key, properties, walk.tool, path, where));
      else out[key] = item;
      continue;
    }
    const earlier = spelledAs.get(name);
    if (earlier !== undefined) {
      const message = `given twice, as ${earlier} and ${key}; send it once`;
      walk.problems.push({ path: where, code: 'duplicate_argument', message });
      continue;
    }
    spelledAs.set(name, key);
    out[name] = readNode(item, properties[name], walk, where, depth + 1);
  }
  return out;
}

function unknownKey(
  key: string,
  properties: Record<string, unknown>,
  tool: string,
  path: string,
  where: string,
): ArgumentProblem {
  const names = Object.keys(properties);
  const guess = nearMiss(key, names);
  const hint = guess === undefined ? '' : ` (did you mean ${guess}?)`;
  const owner = path === '' ? tool : path;
  const takes = names.length === 0 ? `${owner} takes no keys` : `${owner} takes: ${names.join(', ')}`;
  const message = `${path === '' ? 'unknown argument' : 'unknown field'}${hint}; ${takes}`;
  return { path: where, code: 'unknown_argument', message };
}

const CODES: Record<string, ProblemCode> = {
  required: 'required',
  type: 'wrong_type',
  enum: 'not_allowed',
  const: 'not_allowed',
  maxLength: 'too_long',
  minLength: 'too_short',
  pattern: 'pattern',
  minimum: 'too_small',
  exclusiveMinimum: 'too_small',
  maximum: 'too_large',
  exclusiveMaximum: 'too_large',
  maxItems: 'too_many',
  minItems: 'too_few',
  additionalProperties: 'unknown_argument',
};

/** One schema error as an argument problem: the path in declared names (`filter.since`, `tags[2]`). */
function problemOf(error: ErrorObject): ArgumentProblem {
  const steps = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  let path = steps.reduce((p, s) => (/^\d+$/.test(s) ? `${p}[${s}]` : p === '' ? s : `${p}.${s}`), '');
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    path = path === '' ? params.missingProperty : `${path}.${params.missingProperty}`;
    return { path, code: 'required', message: 'is required but was not given' };
  }
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    const allowed = params.allowedValues.map((v) => JSON.stringify(v)).join(', ');
    return { path, code: 'not_allowed', message: `must be one of ${allowed}` };
  }
  return {
    path,
    code: CODES[error.keyword] ?? 'wrong_type',
    message: error.message ?? 'does not fit the schema',
  };
}
