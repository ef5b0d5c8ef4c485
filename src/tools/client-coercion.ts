import type { JsonObject, JsonValue } from '../core/json.js';
import { isPlainObject } from '../core/json.js';

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

/**
 * The arguments as an MCP client sends them: each top-level text argument whose property takes no string
 * becomes the integer or number it spells, or the array, object or boolean its JSON text spells (decoded
 * once). Anything else is untouched; the input is never changed (a copy is returned when something is).
 */
export function asClientSends(args: JsonObject, schema: unknown): JsonObject {
  if (!isPlainObject(schema) || !isPlainObject(schema.properties)) return args;
  const properties = schema.properties;
  let copy: JsonObject | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string' || !Object.hasOwn(properties, key)) continue;
    const kind = nonStringKind(properties[key]);
    if (kind === undefined) continue;
    const read = converted(value, kind);
    if (read === undefined) continue;
    copy ??= { ...args };
    copy[key] = read;
  }
  return copy ?? args;
}
