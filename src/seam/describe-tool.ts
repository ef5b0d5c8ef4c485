import { isPlainObject } from '../core/json.js';
import { headOf } from '../core/text-cut.js';
import { branchesOf } from './lift-summary.js';
import { put, without } from './schema-merge.js';
import { resolvePointer } from './schema-pointer.js';

/** OpenAI's limit on a function description; longer ones are cut on the wire only. */
export const WIRE_DESCRIPTION_LIMIT = 1024;

/** Inputs a derived description lists before it says how many more there are. */
const LISTED_INPUTS = 12;

/** True when `text` is a string with something other than whitespace. */
export function hasDescription(text: unknown): text is string {
  return hasText(text);
}

/** True for a string with something other than whitespace (what `trim` leaves), without copying it. */
export function hasText(text: unknown): text is string {
  if (typeof text !== 'string' || text.length === 0) return false;
  // Most texts start with a visible ASCII character; otherwise `\s` is exactly what `trim` removes.
  const first = text.charCodeAt(0);
  return (first > 32 && first < 127) || NOT_BLANK.test(text);
}

const NOT_BLANK = /\S/;

/** `text` cut to at most `limit` characters (whole code points), ending in `…` when cut. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${headOf(text, limit - 1).trimEnd()}…`;
}

/** The description models are shown: the full text, cut to the wire limit. */
export function wireDescription(full: string): string {
  return cutText(full, WIRE_DESCRIPTION_LIMIT);
}

/**
 * A description for a tool that came without one (Bedrock refuses an empty description): its real
 * name and its declared inputs, each with its type, whether it is required and the first line of
 * its own description.
 */
export function derivedDescription(name: string, parameters: unknown): string {
  const head = `${JSON.stringify(name)} has no description of its own; this one is written from its name and inputs.`;
  const { props, required } = rootInputs(parameters);
  const names = Object.keys(props);
  if (names.length === 0) return `${head} It takes no arguments.`;
  const parts = names.slice(0, LISTED_INPUTS).map((key) => {
    const schema = deref(parameters, props[key]);
    const flags = required.includes(key)
      ? `${kindOf(parameters, schema)}, required`
      : kindOf(parameters, schema);
    const own =
      isPlainObject(schema) && typeof schema.description === 'string' ? firstLine(schema.description) : '';
    const line = own === '' ? '' : ` — ${cutText(own, 60)}`;
    return `${cutText(key, 64)} (${flags})${line}`;
  });
  const more = names.length > LISTED_INPUTS ? `; and ${names.length - LISTED_INPUTS} more` : '';
  return `${head} Inputs: ${parts.join('; ')}${more}.`;
}

/** Most levels of root `$ref` and branches read for inputs. */
const MAX_ROOT_DEPTH = 4;

/**
 * The root's inputs as the offer carries them: through a root `$ref` and the properties of its
 * `allOf`, `anyOf` and `oneOf` branches too; required are those of the root and its `allOf` branches.
 */
function rootInputs(parameters: unknown): { props: Record<string, unknown>; required: unknown[] } {
  const props: Record<string, unknown> = {};
  const required: unknown[] = [];
  const add = (node: unknown, depth: number, always: boolean): void => {
    const at = deref(parameters, node);
    if (!isPlainObject(at) || depth > MAX_ROOT_DEPTH) return;
    const own = at.properties;
    if (isPlainObject(own)) for (const key in own) if (!Object.hasOwn(props, key)) put(props, key, own[key]);
    if (always && Array.isArray(at.required)) required.push(...at.required);
    if (Array.isArray(at.allOf)) for (const branch of at.allOf) add(branch, depth + 1, always);
    for (const branch of branchesOf(at) ?? []) add(branch, depth + 1, false);
  };
  add(parameters, 0, true);
  return { props, required };
}

function firstLine(text: string): string {
  return (text.trim().split('\n')[0] ?? '').trim();
}

function deref(root: unknown, schema: unknown): unknown {
  let at = schema;
  for (let hop = 0; hop < 8 && isPlainObject(at) && typeof at.$ref === 'string'; hop += 1) {
    const target = resolvePointer(root, at.$ref);
    if (!isPlainObject(target)) break;
    at = { ...target, ...without(at, '$ref') };
  }
  return at;
}

/** The type words of one input: its `type`, the non-null types of a list or of its branches, else `value`. */
function kindOf(root: unknown, schema: unknown): string {
  if (!isPlainObject(schema)) return 'value';
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return joinTypes(type) ?? 'value';
  const branches = branchesOf(schema) ?? [];
  const types = branches.map((branch) => {
    const resolved = deref(root, branch);
    return isPlainObject(resolved) ? resolved.type : undefined;
  });
  return joinTypes(types) ?? 'value';
}

function joinTypes(types: unknown[]): string | undefined {
  const named = [...new Set(types.filter((t): t is string => typeof t === 'string' && t !== 'null'))];
  return named.length === 0 ? undefined : named.join(' or ');
}
