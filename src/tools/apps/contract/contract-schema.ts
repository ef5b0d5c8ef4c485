import type { JsonObject } from '../../../core/json.js';
import { isPlainObject } from '../../../core/json.js';

/** Keywords of OpenAPI's schema object that JSON Schema does not have, left out of a tool's schema. */
const OPENAPI_ONLY = new Set(['nullable', 'discriminator', 'xml', 'externalDocs', 'example', 'deprecated']);

/** Keywords holding one subschema, a list of them, or a map of them (the ones followed when copying). */
const ONE = new Set([
  'items',
  'additionalProperties',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
]);
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** How a dereferenced OpenAPI schema becomes a tool's JSON schema. */
export interface SchemaCopy {
  /** `3.0` documents say `nullable: true`; 3.1 ones a `null` type. */
  readonly nullable: boolean;
  /** Shapes that contain themselves, hoisted to `$defs` of the tool's root, by name. */
  readonly defs: Map<string, JsonObject>;
  /** Leave out `readOnly` properties (they describe responses, not requests). */
  readonly request: boolean;
}

/**
 * A self-contained JSON schema (2020-12 wording) from a dereferenced OpenAPI schema: `nullable` read as a
 * `null` type, OpenAPI-only keywords left out, `readOnly` properties left out of requests, every object
 * that declares its properties closed (`additionalProperties: false`, unless it says otherwise), and a
 * shape that contains itself (the dereferencer leaves such a cycle as the same object) hoisted once to
 * `$defs` and referred to by a local `$ref`: the cycle is kept, never unrolled or cut.
 */
export function contractSchema(node: unknown, copy: SchemaCopy): JsonObject {
  const names = new Map<object, string>();
  const onPath = new Set<object>();
  const recursive = new Set<object>();
  // First pass: which shapes are reached again while still being copied.
  const find = (at: unknown): void => {
    if (!isPlainObject(at)) return;
    if (onPath.has(at)) {
      recursive.add(at);
      return;
    }
    onPath.add(at);
    for (const child of children(at)) find(child);
    onPath.delete(at);
  };
  find(node);
  const write = (at: unknown, top: boolean): unknown => {
    if (!isPlainObject(at)) return at;
    if (recursive.has(at) && !top) {
      let name = names.get(at);
      if (name === undefined) {
        name = defName(at, copy.defs);
        names.set(at, name);
        copy.defs.set(name, {});
        copy.defs.set(name, write(at, true) as JsonObject);
      }
      return { $ref: `#/$defs/${name}` };
    }
    return shape(at, (child) => write(child, false), copy);
  };
  return write(node, false) as JsonObject;
}

function children(node: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (ONE.has(key)) out.push(value);
    else if (LIST.has(key) && Array.isArray(value)) out.push(...value);
    else if (MAP.has(key) && isPlainObject(value)) out.push(...Object.values(value));
  }
  return out;
}

function defName(node: Record<string, unknown>, taken: Map<string, JsonObject>): string {
  const base = typeof node.title === 'string' ? node.title.replace(/[^A-Za-z0-9_]/g, '') : '';
  const stem = base === '' ? 'shape' : base;
  let name = stem;
  for (let n = 2; taken.has(name); n += 1) name = `${stem}${n}`;
  return name;
}

/** One node copied: its subschemas through `write`, the OpenAPI wording turned into JSON Schema's. */
function shape(node: Record<string, unknown>, write: (n: unknown) => unknown, copy: SchemaCopy): JsonObject {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (OPENAPI_ONLY.has(key) || key.startsWith('x-')) continue;
    if (key === 'properties' && isPlainObject(value)) {
      const kept = Object.entries(value).filter(
        ([, p]) => !(copy.request && isPlainObject(p) && p.readOnly === true),
      );
      out.properties = Object.fromEntries(kept.map(([name, p]) => [name, write(p)]));
    } else if (ONE.has(key)) out[key] = typeof value === 'boolean' ? value : write(value);
    else if (LIST.has(key) && Array.isArray(value)) out[key] = value.map(write);
    else if (MAP.has(key) && isPlainObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, write(v)]));
    } else out[key] = value;
  }
  if (Array.isArray(out.allOf)) mergeAllOf(out);
  if (Array.isArray(out.required) && isPlainObject(out.properties)) {
    const declared = out.properties;
    out.required = out.required.filter((name) => typeof name === 'string' && Object.hasOwn(declared, name));
    if ((out.required as unknown[]).length === 0) delete out.required;
  }
  if (isPlainObject(out.properties) && !('additionalProperties' in out) && !('patternProperties' in out)) {
    out.additionalProperties = false;
  }
  if (copy.nullable && node.nullable === true) return nullable(out);
  return out as JsonObject;
}

/** A 3.0 `nullable: true` node as JSON Schema says it: `null` among its types (or beside its enum). */
function nullable(node: Record<string, unknown>): JsonObject {
  const type = node.type;
  if (typeof type === 'string') node.type = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) node.type = [...type, 'null'];
  else if (type === undefined) return { anyOf: [node as JsonObject, { type: 'null' }] } as JsonObject;
  if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
  return node as JsonObject;
}

/**
 * `allOf` of plain object shapes merged into the node (properties and required lists joined), since each
 * branch closed on its own would refuse the keys the others declare; branches that cannot be merged (a
 * `$ref`, a union) stay, and then no branch is closed.
 */
function mergeAllOf(node: Record<string, unknown>): void {
  const branches = node.allOf as unknown[];
  const plain = (b: unknown): b is Record<string, unknown> =>
    isPlainObject(b) && !('$ref' in b) && !('anyOf' in b) && !('oneOf' in b) && !('allOf' in b);
  if (!branches.every(plain)) {
    for (const branch of branches) {
      if (isPlainObject(branch) && branch.additionalProperties === false) delete branch.additionalProperties;
    }
    return;
  }
  delete node.allOf;
  const properties: Record<string, unknown> = isPlainObject(node.properties) ? { ...node.properties } : {};
  const required = new Set<unknown>(Array.isArray(node.required) ? node.required : []);
  for (const branch of branches) {
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'properties' && isPlainObject(value)) Object.assign(properties, value);
      else if (key === 'required' && Array.isArray(value)) for (const name of value) required.add(name);
      else if (key !== 'additionalProperties' && !(key in node)) node[key] = value;
    }
  }
  node.type ??= 'object';
  node.properties = properties;
  if (required.size > 0) node.required = [...required];
}
