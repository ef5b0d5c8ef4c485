/** The six JSON types a portable schema node may declare (one per node). */
export const PORTABLE_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean'] as const;

/** One of the six portable node types. */
export type PortableType = (typeof PORTABLE_TYPES)[number];

/** A JSON value's type as a schema names it, `null` included. */
export type JsonType = PortableType | 'null';

/**
 * How the walk treats a keyword it meets on a node: `common` is kept on every typed node (type,
 * description, title, default, enum, format); `per-type` on one type only (properties, items, bounds,
 * pattern); `definitions` ($defs) is dropped once every reference into it is inlined; `map`
 * (additionalProperties, patternProperties) makes an object without properties a map; `structural`
 * keywords ($ref, allOf, anyOf, oneOf, const) are rewritten; `other` keywords only narrow or annotate
 * and are dropped.
 */
export type KeywordKind = 'common' | 'per-type' | 'definitions' | 'map' | 'structural' | 'other';

/** Keywords the profile keeps on every typed node. */
const COMMON = ['type', 'description', 'title', 'default', 'enum', 'format'];

/** Per-type keywords and the type each belongs to. */
export const PER_TYPE: ReadonlyMap<string, PortableType | 'number-like'> = new Map<
  string,
  PortableType | 'number-like'
>([
  ['properties', 'object'],
  ['required', 'object'],
  ['minProperties', 'object'],
  ['maxProperties', 'object'],
  ['items', 'array'],
  ['minItems', 'array'],
  ['maxItems', 'array'],
  ['minLength', 'string'],
  ['maxLength', 'string'],
  ['pattern', 'string'],
  ['minimum', 'number-like'],
  ['maximum', 'number-like'],
]);

/** Bounds that count something (lengths, items, properties): non-negative integers. */
export const COUNT_BOUNDS: ReadonlySet<string> = new Set([
  'minProperties',
  'maxProperties',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
]);

const KINDS = new Map<string, KeywordKind>();
for (const k of COMMON) KINDS.set(k, 'common');
for (const k of PER_TYPE.keys()) KINDS.set(k, 'per-type');
for (const k of ['$defs', 'definitions']) KINDS.set(k, 'definitions');
for (const k of ['additionalProperties', 'patternProperties']) KINDS.set(k, 'map');
for (const k of ['$ref', 'allOf', 'anyOf', 'oneOf', 'const']) KINDS.set(k, 'structural');

/** How the walk treats `keyword`. */
export function keywordKind(keyword: string): KeywordKind {
  return KINDS.get(keyword) ?? 'other';
}

/** True when the per-type `keyword` applies to a node of type `type`. */
export function appliesTo(keyword: string, type: PortableType): boolean {
  const owner = PER_TYPE.get(keyword);
  return owner === type || (owner === 'number-like' && (type === 'number' || type === 'integer'));
}

/** Each portable type with its article, as a sentence names it ("an integer", "a string"). */
export const A_TYPE: Readonly<Record<PortableType, string>> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
};

/** True for one of the six portable types. */
export function isPortableType(value: unknown): value is PortableType {
  return (
    value === 'object' ||
    value === 'array' ||
    value === 'string' ||
    value === 'number' ||
    value === 'integer' ||
    value === 'boolean'
  );
}

/** True for a portable type other than `object` and `array` (a node with no children). */
export function isScalarType(value: unknown): boolean {
  return value === 'string' || value === 'number' || value === 'integer' || value === 'boolean';
}

/** The only `format` the profile keeps (on strings). */
export const PORTABLE_FORMAT = 'date-time';

/** Deepest nesting the walk follows before it carries the rest as JSON text. */
export const MAX_DEPTH = 32;

/** Most schema nodes the walk visits in one schema before it carries the rest as JSON text. */
export const MAX_NODES = 4000;

/**
 * Most nodes one schema may gain by inlining `$ref`s; past it a reference is carried as JSON text
 * (generated API schemas can otherwise inline into hundreds of kilobytes).
 */
export const MAX_INLINED = 100;

/** The schema an argument-less tool is offered. */
export function emptyObjectSchema(): { type: 'object'; properties: Record<string, never> } {
  return { type: 'object', properties: {} };
}
