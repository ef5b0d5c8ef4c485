import { isPlainObject } from '../../core/json.js';
import { resolveLocalRef } from './schema-pointer.js';

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties'] as const;
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
const SCHEMAS = ['additionalProperties', 'not', 'contains', 'propertyNames'] as const;
const MAX_NODES = 20_000;
const MAX_DEPTH = 64;

const cache = new WeakMap<object, boolean>();

function isSchema(node: unknown): boolean {
  return typeof node === 'boolean' || isPlainObject(node);
}

function isTypeKeyword(type: unknown): boolean {
  if (typeof type === 'string') return TYPES.has(type);
  if (!Array.isArray(type) || type.length === 0) return false;
  return type.every((t) => typeof t === 'string' && TYPES.has(t)) && new Set(type).size === type.length;
}

/**
 * True when a declared schema can be read with confidence: the keywords the argument checks use are
 * well formed everywhere and every `$ref` resolves inside the document. Cached per schema object.
 */
export function isReadableSchema(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  const known = cache.get(schema);
  if (known !== undefined) return known;
  const verdict = readable(schema);
  cache.set(schema, verdict);
  return verdict;
}

function readable(root: Record<string, unknown>): boolean {
  let nodes = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'boolean') continue;
    if (!isPlainObject(node) || depth > MAX_DEPTH || ++nodes > MAX_NODES) return false;
    if ('type' in node && !isTypeKeyword(node.type)) return false;
    if ('required' in node) {
      const r = node.required;
      if (!Array.isArray(r) || !r.every((n) => typeof n === 'string') || new Set(r).size !== r.length)
        return false;
    }
    if ('$ref' in node) {
      if (typeof node.$ref !== 'string' || !isSchema(resolveLocalRef(root, node.$ref))) return false;
    }
    for (const key of SCHEMA_MAPS) {
      if (!(key in node)) continue;
      const map = node[key];
      if (!isPlainObject(map)) return false;
      for (const sub of Object.values(map)) stack.push([sub, depth + 1]);
    }
    for (const key of SCHEMA_LISTS) {
      if (!(key in node)) continue;
      const list = node[key];
      if (!Array.isArray(list) || list.length === 0) return false;
      for (const sub of list) stack.push([sub, depth + 1]);
    }
    for (const key of SCHEMAS) if (key in node) stack.push([node[key], depth + 1]);
    if ('items' in node) {
      const items = node.items;
      if (Array.isArray(items)) for (const sub of items) stack.push([sub, depth + 1]);
      else stack.push([items, depth + 1]);
    }
  }
  return true;
}
