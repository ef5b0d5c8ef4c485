/**
 * Draws values from a DECLARED schema, the way its author meant it (for the property test). It is
 * deliberately simple: the test keeps only values Ajv confirms the declared schema accepts.
 *
 * Two readings are the seam's documented ones: an untyped node whose keywords belong to one type
 * is read as that type, and null appears only where the wire carries it — as a property, which the
 * model leaves out (a required one that takes null is offered as optional, and the runtime fills the
 * null back in); a list element that may be null is drawn from its other alternatives.
 */
export const NONE = Symbol('no value');

type Schema = Record<string, unknown>;
type Draw = unknown | typeof NONE;

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A small deterministic random source. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

interface Ctx {
  readonly root: unknown;
  readonly rng: () => number;
  readonly depth: number;
  /** The value is a property, which can be left out to stand for null, so null is fair. */
  readonly omittable: boolean;
}

/** One value the declared `schema` (the root of `root`) accepts, or NONE when none was found. */
export function sampleValue(schema: unknown, rng: () => number): Draw {
  return draw(schema, { root: schema, rng, depth: 0, omittable: false });
}

function pick<T>(rng: () => number, list: readonly T[]): T | undefined {
  return list[Math.floor(rng() * list.length)];
}

function resolve(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let at = root;
  for (const part of ref.slice(1).split('/').slice(1)) {
    if (!isObject(at) || !Object.hasOwn(at, part)) return undefined;
    at = at[part];
  }
  return at;
}

function anyJson(rng: () => number, depth: number): unknown {
  const r = rng();
  if (depth > 2 || r < 0.3) return pick(rng, ['text', 3, 2.5, true, false, null, '']);
  if (r < 0.6) return [anyJson(rng, depth + 1)];
  return { k: anyJson(rng, depth + 1) };
}

function draw(schema: unknown, ctx: Ctx): Draw {
  if (schema === true) return anyJson(ctx.rng, ctx.depth);
  if (!isObject(schema) || ctx.depth > 8) return NONE;
  if (typeof schema.$ref === 'string') {
    const target = resolve(ctx.root, schema.$ref);
    if (target === undefined) return NONE;
    const { $ref: _ref, ...siblings } = schema;
    const merged = isObject(target) ? { ...target, ...siblings } : target;
    return draw(merged, { ...ctx, depth: ctx.depth + 1 });
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    return draw(
      allOf.reduce((acc: Schema, b) => (isObject(b) ? mergeLoosely(acc, b) : acc), rest),
      ctx,
    );
  }
  const alternatives = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : undefined;
  if (alternatives !== undefined) {
    const { anyOf: _a, oneOf: _o, ...rest } = schema;
    const usable = alternatives.filter((b) => ctx.omittable || !isNullOnly(b));
    const branch = pick(ctx.rng, usable);
    return branch === undefined ? NONE : draw(isObject(branch) ? { ...rest, ...branch } : branch, ctx);
  }
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) {
    // A value the node's own `type` refuses is no value of the node (Ajv may still pass one under a
    // `__proto__` key, which it does not check).
    const usable = schema.enum.filter((v) => (ctx.omittable || v !== null) && typeAllows(schema.type, v));
    return usable.length === 0 ? NONE : pick(ctx.rng, usable);
  }
  const type = chooseType(schema, ctx);
  if (type === undefined) return anyJson(ctx.rng, ctx.depth);
  return drawTyped(schema, type, ctx);
}

/** True when `type` (a name, a list of names, or absent) admits `value`. */
function typeAllows(type: unknown, value: unknown): boolean {
  const names = typeof type === 'string' ? [type] : Array.isArray(type) ? type : undefined;
  if (names === undefined) return true;
  const kind =
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? 'integer'
            : 'number'
          : typeof value;
  return names.includes(kind) || (kind === 'integer' && names.includes('number'));
}

function mergeLoosely(a: Schema, b: Schema): Schema {
  const out = { ...a, ...b };
  if (isObject(a.properties) && isObject(b.properties)) out.properties = { ...a.properties, ...b.properties };
  if (Array.isArray(a.required) && Array.isArray(b.required)) out.required = [...a.required, ...b.required];
  return out;
}

function isNullOnly(branch: unknown): boolean {
  return isObject(branch) && (branch.type === 'null' || branch.const === null);
}

function chooseType(schema: Schema, ctx: Ctx): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) {
    const usable = t.filter(
      (x): x is string => typeof x === 'string' && (ctx.omittable || x !== 'null' || t.length === 1),
    );
    return pick(ctx.rng, usable);
  }
  if (isObject(schema.properties) || schema.additionalProperties !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  if (schema.pattern !== undefined || schema.minLength !== undefined || schema.format !== undefined)
    return 'string';
  if (schema.minimum !== undefined || schema.maximum !== undefined) return 'number';
  return undefined;
}

function drawTyped(schema: Schema, type: string, ctx: Ctx): Draw {
  const rng = ctx.rng;
  const inner = { ...ctx, depth: ctx.depth + 1, omittable: false };
  switch (type) {
    case 'string': {
      if (schema.format === 'date-time')
        return new Date(Date.UTC(2024, 0, 1 + Math.floor(rng() * 300))).toISOString();
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      const max = typeof schema.maxLength === 'number' ? schema.maxLength : min + 6;
      const length = min + Math.floor(rng() * (Math.max(max, min) - min + 1));
      return Array.from({ length }, () => pick(rng, ['a', 'b', 'z', ' '])).join('');
    }
    case 'number':
    case 'integer': {
      const low = typeof schema.minimum === 'number' ? schema.minimum : -20;
      const high = typeof schema.maximum === 'number' ? schema.maximum : low + 40;
      const n = low + rng() * (high - low);
      return type === 'integer' ? Math.ceil(n) : n;
    }
    case 'boolean':
      return rng() < 0.5;
    case 'null':
      return null;
    case 'array': {
      const items = schema.items;
      const count = Math.floor(rng() * 3);
      if (Array.isArray(items)) {
        const tuple = items.map((i) => draw(i, inner));
        return tuple.includes(NONE) ? NONE : tuple;
      }
      if (items === undefined || items === true || (isObject(items) && Object.keys(items).length === 0)) {
        return Array.from({ length: count }, () => anyJson(rng, ctx.depth + 1));
      }
      const out = Array.from({ length: count }, () => draw(items, inner));
      return out.includes(NONE) ? NONE : out;
    }
    case 'object':
      return drawObject(schema, ctx, inner);
    default:
      return anyJson(rng, ctx.depth);
  }
}

function drawObject(schema: Schema, ctx: Ctx, inner: Ctx): Draw {
  const out: Schema = {};
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const keys = Object.keys(props);
  if (keys.length === 0) {
    const values = schema.additionalProperties;
    const count = Math.floor(ctx.rng() * 3);
    for (let i = 0; i < count; i += 1) {
      const v = isObject(values) ? draw(values, inner) : anyJson(ctx.rng, ctx.depth + 1);
      if (v === NONE) return NONE;
      Object.defineProperty(out, `k${i}`, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  for (const key of keys) {
    const isRequired = required.includes(key);
    if (!isRequired && ctx.rng() < 0.35) continue;
    const v = draw(props[key], { ...inner, omittable: true });
    if (v === NONE) {
      if (isRequired) return NONE;
      continue;
    }
    Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
