import fc from 'fast-check';

/**
 * Random declared schemas with the defects real MCP servers have (see the corpus README): droppable
 * keywords, type lists with null, null branches, $ref/$defs (some recursive), untyped values,
 * oneOf/allOf/not, formats, const, enums with odd values, free-form objects and maps, lists without
 * items, misplaced keywords — and odd property names.
 */
type Schema = Record<string, unknown>;

const propertyName = fc.constantFrom('a', 'b', 'id', 'items', 'odd key', 'x.y', '__proto__', 'constructor');
const scalarType = fc.constantFrom('string', 'number', 'integer', 'boolean');
const word = fc.constantFrom('', 'a', 'b', 'alpha', 'two words', 'é');

const noise: fc.Arbitrary<Schema> = fc.record(
  {
    description: fc.oneof(fc.string({ maxLength: 12 }), fc.constant(7)),
    title: fc.string({ maxLength: 6 }),
    $comment: fc.constant('generated'),
    examples: fc.constant(['x']),
    'x-meta': fc.constant({ k: 1 }),
    readOnly: fc.boolean(),
    deprecated: fc.boolean(),
    nullable: fc.boolean(),
    default: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);

const stringNode: fc.Arbitrary<Schema> = fc
  .record(
    {
      format: fc.constantFrom('date-time', 'uri', 'uuid', 'email'),
      minLength: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(1.5), fc.constant('2')),
      maxLength: fc.integer({ min: 3, max: 12 }),
      pattern: fc.constantFrom('^[a-z ]*$', '.*'),
      enum: fc.array(fc.oneof(word, fc.constant(null), fc.integer({ min: 0, max: 3 })), { maxLength: 4 }),
      minimum: fc.constant(1),
    },
    { requiredKeys: [] },
  )
  .map((r) => ({ type: 'string', ...r }));

const numberNode: fc.Arbitrary<Schema> = fc.record(
  {
    type: fc.constantFrom('number', 'integer'),
    minimum: fc.integer({ min: -5, max: 0 }),
    maximum: fc.integer({ min: 1, max: 50 }),
    exclusiveMinimum: fc.integer({ min: -10, max: -6 }),
    multipleOf: fc.constant(1),
    enum: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 3 }),
    format: fc.constantFrom('int32', 'double'),
  },
  { requiredKeys: ['type'] },
);

const oddLeaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ const: fc.oneof(word, fc.integer(), fc.boolean(), fc.constant(null)) }),
  fc.record({
    enum: fc.array(fc.oneof(word, fc.integer({ min: 0, max: 3 }), fc.boolean(), fc.constant(null)), {
      minLength: 1,
      maxLength: 4,
    }),
  }),
  fc.record({ description: fc.constant('any value') }),
  fc.constantFrom(true, {}, { type: 'null' }, { type: 'any' }, { type: ['null'] }),
  scalarType.map((t) => ({ type: [t, 'null'] })),
  fc.tuple(scalarType, scalarType).map(([a, b]) => ({ type: [a, b] })),
  fc.record({
    type: scalarType,
    items: fc.constant({ type: 'string' }),
    properties: fc.constant({ q: { type: 'string' } }),
  }),
  fc.constantFrom({ pattern: '^x' }, { minimum: 3 }, { maxItems: 2 }),
);

const refNode = fc
  .constantFrom('#/$defs/Leaf', '#/$defs/Tree', '#/definitions/Old', '#/$defs/Missing', '#/properties/a')
  .map((r) => ({ $ref: r }));

/** A node of a declared schema, any defect allowed. */
export const nodeArbitrary: fc.Arbitrary<unknown> = fc.letrec<{
  node: unknown;
  object: Schema;
  array: Schema;
}>((tie) => ({
  node: fc.oneof(
    { maxDepth: 3, depthSize: 'small' },
    stringNode,
    numberNode,
    oddLeaf,
    refNode,
    tie('object'),
    tie('array'),
    fc.record({
      anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
      description: fc.constant('one of'),
    }),
    fc
      .tuple(tie('node'), fc.boolean())
      .map(([n, nul]) => ({ anyOf: nul ? [n, { type: 'null' }] : [n, { type: 'string' }] })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((b) => ({ oneOf: b })),
    fc.tuple(tie('object'), tie('object')).map(([a, b]) => ({ allOf: [a, b] })),
    stringNode.map((s) => ({ ...s, not: { const: 'forbidden' } })),
    fc
      .tuple(tie('node'), noise)
      .map(([n, extra]) =>
        typeof n === 'object' && n !== null && !Array.isArray(n) ? { ...extra, ...n } : n,
      ),
  ),
  object: fc.oneof(
    { maxDepth: 3, depthSize: 'small' },
    fc
      .record(
        {
          properties: fc.dictionary(propertyName, tie('node'), { minKeys: 1, maxKeys: 3 }),
          required: fc.array(fc.oneof(propertyName, fc.constant('ghost')), { maxLength: 3 }),
          additionalProperties: fc.oneof(fc.boolean(), stringNode),
          minProperties: fc.constant(0),
          minItems: fc.constant(1),
        },
        { requiredKeys: ['properties'] },
      )
      .map((r) => ({ type: 'object', ...r })),
    fc.constantFrom({ type: 'object' }, { type: 'object', description: 'free-form' }),
    fc.oneof(stringNode, numberNode).map((v) => ({ type: 'object', additionalProperties: v })),
    fc.constant({ type: 'object', patternProperties: { '^k': { type: 'integer' } } }),
    fc.dictionary(propertyName, tie('node'), { minKeys: 1, maxKeys: 2 }).map((p) => ({ properties: p })),
  ),
  array: fc.oneof(
    { maxDepth: 3, depthSize: 'small' },
    fc
      .record(
        {
          items: tie('node'),
          minItems: fc.integer({ min: 0, max: 1 }),
          maxItems: fc.integer({ min: 2, max: 4 }),
          uniqueItems: fc.boolean(),
        },
        { requiredKeys: ['items'] },
      )
      .map((r) => ({ type: 'array', ...r })),
    fc.constantFrom({ type: 'array' }, { type: 'array', items: {} }, { type: 'array', items: true }),
    tie('node').map((n) => ({ type: 'array', items: [n] })),
    tie('node').map((n) => ({ items: n })),
  ),
})).node;

const definitions = fc.record({
  Leaf: fc.oneof(stringNode, numberNode, oddLeaf),
  Tree: fc.constant({
    type: 'object',
    properties: { label: { type: 'string' }, kids: { type: 'array', items: { $ref: '#/$defs/Tree' } } },
  }),
});

/** A declared parameters schema: usually an object root, sometimes a combinator, a map or a reference. */
export const rootArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .record(
        {
          properties: fc.dictionary(propertyName, nodeArbitrary, { minKeys: 0, maxKeys: 4 }),
          required: fc.array(fc.oneof(propertyName, fc.constant('ghost')), { maxLength: 3 }),
          additionalProperties: fc.boolean(),
          $schema: fc.constant('http://json-schema.org/draft-07/schema#'),
          $defs: definitions,
          definitions: fc.constant({ Old: { type: 'string', format: 'uuid' } }),
          type: fc.constantFrom('object', ['object', 'null']),
        },
        { requiredKeys: ['properties', '$defs'] },
      )
      .map((r) => ({ type: 'object', ...r })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(nodeArbitrary, nodeArbitrary).map(([a, b]) => ({
      anyOf: [
        { type: 'object', properties: { a } },
        { type: 'object', properties: { b } },
      ],
    })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(nodeArbitrary, nodeArbitrary).map(([a, b]) => ({
      allOf: [
        { type: 'object', properties: { a } },
        { properties: { b }, required: ['b'] },
      ],
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { type: 'object', additionalProperties: { type: 'string' } },
      { type: 'string' },
      { $ref: '#/$defs/Args', $defs: { Args: { type: 'object', properties: { q: { type: 'string' } } } } },
    ),
  },
);
