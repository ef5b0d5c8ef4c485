import { isPlainObject, type JsonObject, type JsonValue } from '../core/json.js';
import { branchesOf, deref, type Resolve } from './lift-summary.js';
import { put } from './schema-merge.js';
import { resolvePointer } from './schema-pointer.js';

type Schema = Record<string, unknown>;

/** Deepest nesting followed (a recursive schema ends here). */
const MAX_DEPTH = 32;

/**
 * The call's arguments with `null` filled in for every required property the model left out whose
 * DECLARED schema takes null: the offer cannot carry null, so the seam offers such a property as
 * optional and leaving it out stands for null. Follows nested objects and list elements the call
 * holds; the input is never mutated (unchanged parts are shared).
 */
export function fillOmittedNulls(declared: unknown, args: JsonObject): JsonObject {
  const resolve: Resolve = (ref) => resolvePointer(declared, ref);
  return fill(resolve, declared, args, 0) as JsonObject;
}

function fill(resolve: Resolve, raw: unknown, value: JsonValue, depth: number): JsonValue {
  if (depth > MAX_DEPTH) return value;
  const node = deref(resolve, raw);
  if (!isPlainObject(node)) return value;
  if (Array.isArray(value)) return fillElements(resolve, node.items, value, depth);
  if (!isPlainObject(value) || !isPlainObject(node.properties)) return value;
  const props = node.properties as Schema;
  let copy: JsonObject | undefined;
  for (const name in value) {
    if (!Object.hasOwn(props, name)) continue;
    const inner = value[name] as JsonValue;
    const next = fill(resolve, props[name], inner, depth + 1);
    if (next !== inner) {
      copy ??= { ...value };
      put(copy, name, next);
    }
  }
  if (Array.isArray(node.required)) {
    for (const name of node.required) {
      if (typeof name !== 'string' || !Object.hasOwn(props, name) || Object.hasOwn(value, name)) continue;
      if (takesNull(resolve, props[name])) {
        copy ??= { ...value };
        put(copy, name, null);
      }
    }
  }
  return copy ?? value;
}

function fillElements(resolve: Resolve, items: unknown, list: JsonValue[], depth: number): JsonValue {
  if (!isPlainObject(items)) return list;
  let copy: JsonValue[] | undefined;
  for (let i = 0; i < list.length; i += 1) {
    const element = list[i] as JsonValue;
    const next = fill(resolve, items, element, depth + 1);
    if (next !== element) {
      copy ??= list.slice();
      copy[i] = next;
    }
  }
  return copy ?? list;
}

/**
 * True when the declared node surely accepts null: its `type` lists null, it is OpenAPI-`nullable`,
 * or, untyped, its `const` / `enum` holds null or one of its `anyOf` / `oneOf` branches takes null.
 */
export function takesNull(resolve: Resolve, raw: unknown, depth = 0): boolean {
  const node = deref(resolve, raw);
  if (!isPlainObject(node) || depth > MAX_DEPTH) return false;
  if (node.nullable === true) return true;
  const type = node.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (type !== undefined) return false;
  if (node.const === null || (Array.isArray(node.enum) && node.enum.includes(null))) return true;
  return branchesOf(node)?.some((branch) => takesNull(resolve, branch, depth + 1)) ?? false;
}
