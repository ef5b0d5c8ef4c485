/**
 * The test's side of the seam's promise: how a value the DECLARED schema accepts travels to the
 * offered schema (lifted paths as JSON text, null-valued arguments left out), and the reading of a
 * declared schema its author meant.
 */

import { isPlainObject } from '../../src/core/json.js';
import type { LiftedArgument, RenamedKey } from '../../src/seam/index.js';

type Value = unknown;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets an own property (a plain assignment to `__proto__` would set the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Replaces the value at a lifted path with its JSON text (the model's side of the codec). */
export function encodeAt(value: Value, lift: LiftedArgument, at = 0): Value {
  const step = lift.steps[at];
  if (step === undefined) return JSON.stringify(value);
  if (step.kind === 'element')
    return Array.isArray(value) ? value.map((v) => encodeAt(v, lift, at + 1)) : value;
  if (!isObject(value) || !Object.hasOwn(value, step.name)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    setOwn(copy, key, key === step.name ? encodeAt(value[key], lift, at + 1) : value[key]);
  return copy;
}

/** Leaves out every null-valued property (an argument that can be omitted is, instead of null). */
export function dropNullProperties(value: Value): Value {
  if (Array.isArray(value)) return value.map(dropNullProperties);
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    if (value[key] !== null) setOwn(copy, key, dropNullProperties(value[key]));
  return copy;
}

const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties'];

/** Keywords that apply to one type only, so an untyped node carrying them means that type. */
const TYPE_OF_KEYWORD: Record<string, string> = {
  properties: 'object',
  additionalProperties: 'object',
  patternProperties: 'object',
  required: 'object',
  minProperties: 'object',
  maxProperties: 'object',
  items: 'array',
  prefixItems: 'array',
  minItems: 'array',
  maxItems: 'array',
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  minimum: 'number',
  maximum: 'number',
};

const UNTYPED_AS_DECLARED = ['type', 'anyOf', 'oneOf', 'allOf', '$ref', 'const', 'enum'];

/**
 * The declared schema as its author meant it: an object that declares properties takes those
 * (alternatives that name different keys do not let one key slip in under another's schema), and
 * an untyped node whose keywords all belong to one type is of that type (the seam's documented
 * reading). Values are kept only when this reading accepts them; the seam's repairs are held to it.
 */
export function closeObjects(node: unknown): unknown {
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node)) {
    const v = node[key];
    if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(v)) setOwn(out, key, v.map(closeObjects));
    else if (SUBSCHEMA_MAPS.includes(key) && isObject(v)) {
      const map: Record<string, unknown> = {};
      for (const name of Object.keys(v)) setOwn(map, name, closeObjects(v[name]));
      setOwn(out, key, map);
    } else if (['items', 'additionalProperties', 'not'].includes(key)) setOwn(out, key, closeObjects(v));
    else setOwn(out, key, v);
  }
  if (
    isObject(node.properties) &&
    node.additionalProperties === undefined &&
    node.patternProperties === undefined
  ) {
    out.additionalProperties = false;
  }
  if (!UNTYPED_AS_DECLARED.some((k) => k in node)) {
    const implied = new Set(
      Object.keys(node).flatMap((k) => (TYPE_OF_KEYWORD[k] ? [TYPE_OF_KEYWORD[k]] : [])),
    );
    if (implied.size === 1) out.type = [...implied][0];
  }
  return out;
}

/** A validator's verdict, or undefined when it cannot give one (a left-recursive schema overflows Ajv). */
export function judge(
  validate: (value: unknown) => boolean | Promise<unknown>,
  value: unknown,
): boolean | undefined {
  try {
    return validate(value) === true;
  } catch {
    return undefined;
  }
}

/**
 * What a model sends for a value the tool accepts: lifted paths as JSON text, renamed arguments
 * under their wire keys, null arguments left out.
 */
export function toWire(
  value: Value,
  lifted: readonly LiftedArgument[],
  renamed: readonly RenamedKey[] = [],
): Value {
  let wire = value;
  for (const lift of [...lifted].reverse()) wire = encodeAt(wire, lift);
  if (renamed.length > 0 && isPlainObject(wire)) {
    const byKey = new Map(renamed.map((r) => [r.declared, r.wire]));
    const out: Record<string, Value> = {};
    for (const [key, v] of Object.entries(wire)) {
      const name = byKey.get(key) ?? key;
      if (name === '__proto__')
        Object.defineProperty(out, name, { value: v, enumerable: true, writable: true, configurable: true });
      else out[name] = v as Value;
    }
    wire = out as Value;
  }
  return dropNullProperties(wire);
}
