import { isPlainObject, type JsonObject, type JsonSchema } from '../core/json.js';
import { sentences } from './lift-summary.js';
import type { SchemaIssue } from './schema-issue.js';
import { put } from './schema-merge.js';
import { shortHash } from './wire-name.js';

/** A property key Anthropic and Bedrock accept (`input_schema.properties` keys are checked against it). */
export const PROPERTY_KEY_PATTERN = /^[a-zA-Z0-9_.-]{1,64}$/;

const MAX_KEY = 64;
const NONE: readonly RenamedKey[] = Object.freeze([]);
const UNSAFE_KEY = /[^a-zA-Z0-9_.-]/gu;

/**
 * A top-level argument the offer names differently from its declaration (`$top` → `_top`,
 * `Account Number` → `Account_Number`): the model sends the wire key, and `restoreDeclaredKeys`
 * puts the declared one back before the call is checked and run.
 */
export interface RenamedKey {
  readonly declared: string;
  readonly wire: string;
}

/** True when an object's properties hold a key some provider refuses. */
export function hasUnsafeKey(props: Record<string, unknown>): boolean {
  // One native match per key: cheaper on a cold pass than a set of keys seen (their hashes cost more).
  for (const key in props) if (!PROPERTY_KEY_PATTERN.test(key)) return true;
  return false;
}

/**
 * The offered root with every unsafe property key renamed (in `properties` and `required`), each
 * rename recorded as a repair; the root itself when every key is safe. Wire keys are distinct from
 * each other and from the keys kept: a cut or clashing one carries a hash of the declared key.
 */
export function renameUnsafeKeys(
  root: JsonSchema,
  issues: SchemaIssue[],
): { readonly root: JsonSchema; readonly renamed: readonly RenamedKey[] } {
  const props = root.properties;
  if (!isPlainObject(props) || !hasUnsafeKey(props)) return { root, renamed: NONE };
  const taken = new Set(Object.keys(props).filter((k) => PROPERTY_KEY_PATTERN.test(k)));
  const renamed: RenamedKey[] = [];
  const wireOf = new Map<string, string>();
  const properties: Record<string, unknown> = {};
  for (const key of Object.keys(props)) {
    let wire = key;
    if (!PROPERTY_KEY_PATTERN.test(key)) {
      wire = wireKey(key, taken);
      taken.add(wire);
      wireOf.set(key, wire);
      renamed.push({ declared: key, wire });
      issues.push({
        rule: 'property_key_invalid',
        path: 'properties',
        detail: `the argument name ${JSON.stringify(key)} is not one every provider accepts`,
        action: 'repaired',
        fix: `offered it as "${wire}" (the call gets its declared name back)`,
      });
    }
    put(properties, wire, wire === key ? props[key] : namedAsDeclared(props[key], key));
  }
  const out: JsonSchema = { ...root, properties };
  if (Array.isArray(root.required)) {
    out.required = root.required.map((name) =>
      typeof name === 'string' ? (wireOf.get(name) ?? name) : name,
    );
  }
  return { root: out, renamed };
}

/**
 * The offered property with its declared name in its description: a key in another script travels
 * as `_`s and a hash, and an operator such as `$top` says what the argument is.
 */
function namedAsDeclared(schema: unknown, declared: string): unknown {
  if (!isPlainObject(schema)) return schema;
  const own = typeof schema.description === 'string' ? schema.description.trim() : '';
  return { ...schema, description: sentences(own, `Declared as ${JSON.stringify(declared)}.`) };
}

function wireKey(key: string, taken: ReadonlySet<string>): string {
  const safe = key.replace(UNSAFE_KEY, '_') || '_';
  if (safe.length <= MAX_KEY && !taken.has(safe)) return safe;
  const hashed = `${safe.slice(0, MAX_KEY - 9)}_${shortHash(key)}`;
  // Two keys that cut to the same text and hash alike are beyond any real schema; a counter settles it.
  let wire = hashed;
  for (let n = 2; taken.has(wire); n += 1) wire = `${hashed.slice(0, MAX_KEY - String(n).length)}${n}`;
  return wire;
}

/**
 * The call's arguments with the declared key back for each renamed one the model sent (the input is
 * never mutated). A declared key sent as it is (by a caller that is not a model) is kept.
 */
export function restoreDeclaredKeys(args: JsonObject, renamed: readonly RenamedKey[]): JsonObject {
  let copy: JsonObject | undefined;
  for (const { declared, wire } of renamed) {
    if (!Object.hasOwn(args, wire) || Object.hasOwn(args, declared)) continue;
    copy ??= { ...args };
    put(copy, declared, copy[wire]);
    delete copy[wire];
  }
  return copy ?? args;
}
