import type { JsonObject } from '../../core/json.js';
import { isPlainObject } from '../../core/json.js';
import { headOf } from '../../core/text-cut.js';
import { type ArgumentProblem, describeValue } from './argument-problem.js';
import { readAsClientSends } from './client-coercion.js';
import { foldedKey, keySpellings } from './key-spellings.js';
import { type SchemaPlan, schemaPlan } from './schema-plan.js';
import { isReadableSchema } from './schema-readable.js';

/** The most problems one check reports. */
export const MAX_DECLARED_PROBLEMS = 5;
const MAX_MESSAGE = 200;
const MAX_DEPTH = 64;

/** Options of the declared-type check. */
export interface MistypedOptions {
  /** Judge the arguments as an MCP client will send them (numeric text → number, JSON text → value). */
  readonly asClientSends?: boolean;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Options of the required-argument check. */
export interface MissingOptions {
  /** The tool also reads each key in other spellings and letter cases (`ToolDefinition.keySpellings`). */
  readonly keySpellings?: boolean;
}

interface Walk {
  readonly keyword: 'required' | 'type';
  readonly problems: ArgumentProblem[];
  readonly keySpellings: boolean;
  /** The paths each plan was applied at through a `$ref` or an `allOf` branch (made on first use). */
  reached?: Map<SchemaPlan, Set<string>>;
}

/** The key of `value` that gives the declared `name`: itself, else (when spellings count) another spelling. */
function givenKey(walk: Walk, value: Readonly<Record<string, unknown>>, name: string): string | undefined {
  if (Object.hasOwn(value, name)) return name;
  if (!walk.keySpellings) return undefined;
  const spelled = keySpellings(name).find((spelling) => Object.hasOwn(value, spelling));
  if (spelled !== undefined) return spelled;
  const folded = foldedKey(name);
  return Object.keys(value).find((key) => foldedKey(key) === folded);
}

function report(walk: Walk, path: string, code: ArgumentProblem['code'], message: string): void {
  const cut = message.length > MAX_MESSAGE ? `${headOf(message, MAX_MESSAGE - 3)}...` : message;
  // Branches of one `allOf` often say the same thing (each declares the type): one line is enough.
  if (walk.problems.some((p) => p.path === path && p.message === cut)) return;
  walk.problems.push({ path, code, message: cut });
}

/**
 * Applies a plan met through a `$ref` or an `allOf` branch, unless it was applied at this path already:
 * the value there is the same, and definitions that each reach the next twice (or themselves) would
 * otherwise be read a number of times doubling with every link.
 */
function visitAt(walk: Walk, value: unknown, plan: SchemaPlan, path: string, depth: number): void {
  walk.reached ??= new Map();
  const paths = walk.reached.get(plan);
  if (paths === undefined) walk.reached.set(plan, new Set([path]));
  else if (paths.has(path)) return;
  else paths.add(path);
  visit(walk, value, plan, path, depth);
}

/** Applies the asked keyword at one node, then follows `$ref`, `allOf`, `properties` and `items`. */
function visit(walk: Walk, value: unknown, plan: SchemaPlan | undefined, path: string, depth: number): void {
  if (plan === undefined || depth > MAX_DEPTH || walk.problems.length >= MAX_DECLARED_PROBLEMS) return;
  if (plan.ref !== undefined) visitAt(walk, value, plan.ref, path, depth + 1);
  for (const branch of plan.allOf) visitAt(walk, value, branch, path, depth + 1);
  const types = plan.types;
  if (walk.keyword === 'type' && types !== undefined && !types.some((t) => hasType(value, t))) {
    const wanted = types.map((t) => TYPE_WORDS[t] ?? t).join(' or ');
    report(walk, path, 'wrong_type', `expected ${wanted}, got ${describeValue(value)}`);
    return;
  }
  if (isPlainObject(value)) {
    if (walk.keyword === 'required' && plan.required !== undefined) {
      for (const name of plan.required) {
        if (givenKey(walk, value, name) === undefined)
          report(walk, childPath(path, name), 'required', 'is required but was not given');
      }
    }
    if (plan.properties !== undefined) {
      for (const [key, sub] of plan.properties) {
        const given = givenKey(walk, value, key);
        if (given !== undefined) visit(walk, value[given], sub, childPath(path, key), depth + 1);
      }
    }
  } else if (Array.isArray(value)) {
    const { positional, rest } = plan;
    for (let i = 0; i < value.length; i++) {
      visit(walk, value[i], i < positional.length ? positional[i] : rest, childPath(path, i), depth + 1);
    }
  }
}

function check(
  args: unknown,
  schema: unknown,
  keyword: Walk['keyword'],
  keySpellings = false,
): ArgumentProblem[] {
  if (!isPlainObject(schema) || !isReadableSchema(schema)) return [];
  let empty = true;
  for (const _ in schema) {
    empty = false;
    break;
  }
  if (empty) return [];
  const walk: Walk = { keyword, problems: [], keySpellings };
  visit(walk, args ?? {}, schemaPlan(schema), '', 0);
  return walk.problems.slice(0, MAX_DECLARED_PROBLEMS);
}

/**
 * The arguments a call leaves out that its DECLARED schema requires — only `required` is judged, through
 * `properties`, `items`, `allOf` and local `$ref`s; at most five, each with its path. A schema that cannot be
 * read refuses nothing.
 */
export function missingArguments(
  args: unknown,
  declaredSchema: unknown,
  options: MissingOptions = {},
): ArgumentProblem[] {
  return check(args, declaredSchema, 'required', options.keySpellings === true);
}

/**
 * The arguments whose JSON type differs from what the DECLARED schema says — only `type` is judged (no
 * pattern, enum, format, union branch or closed-object rule); at most five, each with its path. Judged as
 * a client sends them, an object or list sent as JSON text that does not parse is named with where it
 * breaks (a type error would send a model to change the structure, and the same syntax slip again).
 */
export function mistypedArguments(
  args: unknown,
  declaredSchema: unknown,
  options: MistypedOptions = {},
): ArgumentProblem[] {
  if (!options.asClientSends || !isPlainObject(args)) return check(args, declaredSchema, 'type');
  const read = readAsClientSends(args as JsonObject, declaredSchema);
  const typed = check(read.args, declaredSchema, 'type');
  if (read.unreadable.length === 0 || !isReadableSchema(declaredSchema)) return typed;
  const broken = new Set(read.unreadable.map((p) => p.path));
  return [...read.unreadable, ...typed.filter((p) => !broken.has(p.path))].slice(0, MAX_DECLARED_PROBLEMS);
}
