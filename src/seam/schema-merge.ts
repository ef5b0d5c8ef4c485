import { isPlainObject } from '../core/json.js';

type Schema = Record<string, unknown>;

/** Sets `key` as an own property, `__proto__` included (plain assignment would set the prototype). */
export function put(target: Schema, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** A shallow copy of `node` without `keys`. */
export function without(node: Schema, ...keys: string[]): Schema {
  const out: Schema = {};
  for (const key in node) if (!keys.includes(key)) put(out, key, node[key]);
  return out;
}

function typeList(type: unknown): string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

/** The types both declarations allow (`integer` is a `number`); `first` when they share none. */
function intersectTypes(first: unknown, second: unknown): unknown {
  const a = typeList(first);
  const b = typeList(second);
  if (a === undefined || b === undefined) return first;
  const both = a.filter((t) => b.includes(t) || (t === 'integer' && b.includes('number')));
  for (const t of b) if (t === 'integer' && a.includes('number') && !both.includes(t)) both.push(t);
  if (both.length === 0) return first;
  return both.length === 1 ? both[0] : both;
}

/**
 * Merges two schemas a value must BOTH satisfy into one that accepts at least every such value:
 * `properties` are united (a name both declare keeps `base`'s schema), `required` lists are united,
 * `type` is narrowed to the types both allow, and for any other keyword `base` wins. Picking one
 * side's constraint can only widen what the merged schema accepts, never narrow it.
 */
export function mergeSchemas(base: Schema, extra: Schema): Schema {
  const out: Schema = {};
  for (const key in base) put(out, key, base[key]);
  for (const key in extra) {
    const mine = out[key];
    const theirs = extra[key];
    if (!Object.hasOwn(out, key)) {
      put(out, key, theirs);
    } else if (key === 'properties' && isPlainObject(mine) && isPlainObject(theirs)) {
      const props: Schema = {};
      for (const name in theirs) put(props, name, theirs[name]);
      for (const name in mine) put(props, name, mine[name]);
      out[key] = props;
    } else if (key === 'required' && Array.isArray(mine) && Array.isArray(theirs)) {
      out[key] = [...new Set([...mine, ...theirs])];
    } else if (key === 'type') {
      out[key] = intersectTypes(mine, theirs);
    }
  }
  return out;
}
