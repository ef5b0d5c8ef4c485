import type { JsonObject, JsonValue } from '../../core/json.js';
import { isPlainObject } from '../../core/json.js';

const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const KINDS = ['integer', 'number', 'boolean', 'array', 'object'] as const;
type Kind = (typeof KINDS)[number];

/**
 * The arguments as toolseam's MCP client sends them: a top-level string argument whose declared
 * property takes no string at all is read once as what it spells — numeric text as a number, the JSON
 * text of an array, object or boolean as that value. Everything else travels untouched, and the input
 * object is never changed.
 */
export function argumentsAsMcpClientSends(args: JsonObject, schema: unknown): JsonObject {
  if (!isPlainObject(schema) || !isPlainObject(schema.properties)) return args;
  const properties = schema.properties;
  let out: JsonObject | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') continue;
    const kind = soleNonStringKind(properties[key]);
    if (!kind) continue;
    const read = readAs(kind, value);
    if (read === undefined) continue;
    out ??= { ...args };
    out[key] = read;
  }
  return out ?? args;
}

/** The kind a property declares when it takes no string, or undefined when a string may be fine. */
function soleNonStringKind(property: unknown): Kind | undefined {
  if (!isPlainObject(property)) return undefined;
  if ('anyOf' in property || 'oneOf' in property || 'allOf' in property || '$ref' in property)
    return undefined;
  const type = property.type;
  const types = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  if (!types || types.includes('string')) return undefined;
  return KINDS.find((k) => types.includes(k));
}

function readAs(kind: Kind, text: string): JsonValue | undefined {
  if (kind === 'integer')
    return INTEGER_TEXT.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : undefined;
  if (kind === 'number') return NUMBER_TEXT.test(text) ? finite(Number(text)) : undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (kind === 'boolean') return typeof decoded === 'boolean' ? decoded : undefined;
  if (kind === 'array') return Array.isArray(decoded) ? (decoded as JsonValue[]) : undefined;
  return isPlainObject(decoded) ? (decoded as JsonObject) : undefined;
}

function finite(n: number): number | undefined {
  return Number.isFinite(n) ? n : undefined;
}
