import { describe, expect, it } from 'vitest';
import { defineTool, field, ToolDefinitionError } from '../../../src/tools/index.js';

const handler = () => 'done';

/** Defines a tool the way an app written in JavaScript may, with whatever it passes as `fields`. */
const defineWith = (fields: unknown) => () =>
  defineTool({ name: 'lookup', description: 'Looks something up.', fields: fields as never, handler });

describe('a field spec that is not one', () => {
  const cases: [string, unknown, RegExp][] = [
    [
      'a type name as text',
      { city: 'string' },
      /lookup\.city: the text "string" is not a field spec; declare it with field\.string\(\)/,
    ],
    [
      'a builder not called',
      { city: field.string },
      /lookup\.city: is a function, not a field spec; call it \(e\.g\. field\.string\(\)\)/,
    ],
    ['a JSON schema', { city: { type: 'string' } }, /lookup\.city: an object no field builder made/],
    ['a field left undefined', { city: undefined }, /lookup\.city: undefined is not a field spec/],
    [
      'a list without items',
      { tags: field.list(undefined as never) },
      /lookup\.tags: a list declares its items/,
    ],
    [
      'a list of type names',
      { tags: field.list('string' as never) },
      /lookup\.tags\[\]: the text "string" is not a field spec/,
    ],
    [
      'an object without fields',
      { where: field.object(undefined as never) },
      /lookup\.where: a nested object declares its fields/,
    ],
    [
      'an enum that is not a list',
      { unit: field.string({ enum: 'cm' as never }) },
      /lookup\.unit: enum is a list/,
    ],
    [
      'a pattern given as text',
      { code: field.string({ pattern: '^[a-z]+$' as never }) },
      /lookup\.code: pattern is a regular expression/,
    ],
    [
      'an unknown JSON shape',
      { data: field.json({ shape: 'array' as never }) },
      /lookup\.data: shape is one of any, object, list/,
    ],
    ['fields given as text', 'city', /lookup: fields is an object of field specs by name/],
  ];
  for (const [what, fields, message] of cases) {
    it(`is refused at definition, naming the field: ${what}`, () => {
      expect(defineWith(fields)).toThrow(ToolDefinitionError);
      expect(defineWith(fields)).toThrow(message);
    });
  }

  it('still takes every real field spec', () => {
    const tool = defineWith({
      tags: field.list(field.string()),
      where: field.object({ city: field.string() }),
      data: field.json({ shape: 'list' }),
      code: field.string({ pattern: /^[a-z]+$/, enum: ['ab', 'cd'] }),
    })();
    expect(tool.read({ tags: ['x'], where: { city: 'Oslo' }, data: '[1]', code: 'ab' })).toEqual({
      ok: true,
      args: { tags: ['x'], where: { city: 'Oslo' }, data: [1], code: 'ab' },
    });
  });
});

describe('a default or safe value of the wrong kind', () => {
  const cases: [string, unknown, RegExp][] = [
    [
      'a yes/no default as text',
      { pinned: field.boolean({ default: 'false' as never }) },
      /lookup\.pinned: safe and default are true or false/,
    ],
    [
      'a safe value as text',
      { pinned: field.boolean({ safe: 'no' as never }) },
      /lookup\.pinned: safe and default are true or false/,
    ],
    [
      'a number default as text',
      { limit: field.integer({ default: '5' as never }) },
      /lookup\.limit: its default is a number/,
    ],
    [
      'a text default as a number',
      { unit: field.string({ default: 5 as never }) },
      /lookup\.unit: its default is text/,
    ],
  ];
  for (const [what, fields, message] of cases) {
    it(`is refused at definition: ${what}`, () => {
      expect(defineWith(fields)).toThrow(ToolDefinitionError);
      expect(defineWith(fields)).toThrow(message);
    });
  }

  it('hands the handler a left-out field as the field reads its default', () => {
    const tool = defineWith({ unit: field.string({ default: '  cm ', trim: true }) })();
    expect(tool.read({})).toEqual({ ok: true, args: { unit: 'cm' } });
    expect(tool.read({ unit: ' cm ' })).toEqual({ ok: true, args: { unit: 'cm' } });
  });
});
