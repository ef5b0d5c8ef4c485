import type { JsonObject, JsonValue } from '../core/json.js';
import { isPlainObject } from '../core/json.js';
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

function converted(text: string, kind: Kind): JsonValue | undefined {
  if (kind === 'integer') {
    if (!INTEGER_TEXT.test(text)) return undefined;
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  if (kind === 'number') return NUMBER_TEXT.test(text) ? Number(text) : undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    return undefined;
  }
  const fits =
    kind === 'boolean'
      ? typeof decoded === 'boolean'
      : kind === 'array'
        ? Array.isArray(decoded)
        : isPlainObject(decoded);
  return fits ? (decoded as JsonValue) : undefined;
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

/**
 * The arguments as an MCP client sends them: each top-level text argument (declared at the root, behind
 * its `$ref` or in its `allOf`) whose property takes no string
 * becomes the integer or number it spells, or the array, object or boolean its JSON text spells (decoded
 * once). Anything else is untouched; the input is never changed (a copy is returned when something is).
 */
export function asClientSends(args: JsonObject, schema: unknown): JsonObject {
  const declared = rootProperties(schema);
  if (declared.length === 0) return args;
  let copy: JsonObject | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') continue;
    const kind = kindOfKey(declared, key);
    if (kind === undefined) continue;
    const read = converted(value, kind);
    if (read === undefined) continue;
    copy ??= { ...args };
    copy[key] = read;
  }
  return copy ?? args;
}
