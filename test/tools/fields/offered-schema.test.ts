import { describe, expect, it } from 'vitest';
import { defineTool, field, ToolDefinitionError } from '../../../src/tools/index.js';
import { automationCreate, createEvent, imageGenerate, listCustomers, memoryList } from './sample-tools.js';

describe('the offered schema comes from the field specs', () => {
  it('carries lengths, bounds, defaults and what a call requires (the image tool of the reference)', () => {
    expect(imageGenerate.parameters).toEqual({
      type: 'object',
      properties: {
        prompt: { type: 'string', description: 'What to draw.', maxLength: 500, minLength: 1 },
        edit: { type: 'boolean', default: false },
        size: { type: 'string', default: '', enum: ['1024x1024', '256x256', '512x512'] },
        count: { type: 'integer', maximum: 4, minimum: 1 },
        quality: { type: 'number', maximum: 1, minimum: 0 },
      },
      required: ['prompt'],
    });
  });

  it('offers an enum sorted and without the empty value, and never a pattern', () => {
    const tool = defineTool({
      name: 'pick',
      description: 'Picks.',
      fields: {
        mode: field.string({ enum: ['zeta', '', 'alpha'], optional: true }),
        id: field.string({ pattern: /^[a-z]+\d*$/u }),
        only_blank: field.string({ enum: [''], optional: true }),
      },
      handler: () => 'ok',
    });
    const properties = tool.parameters['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['mode']).toEqual({ type: 'string', enum: ['alpha', 'zeta'] });
    expect(properties['id']).toEqual({ type: 'string' });
    expect(properties['only_blank']).toEqual({ type: 'string' });
    expect(tool.read({ id: 'abc1', mode: '' })).toEqual({ ok: true, args: { id: 'abc1', mode: '' } });
  });

  it('nests objects and lists with their own limits and required fields', () => {
    const properties = createEvent.parameters['properties'] as Record<string, unknown>;
    expect(properties['start']).toEqual({
      type: 'object',
      properties: { dateTime: { type: 'string' }, timeZone: { type: 'string' } },
      required: ['dateTime'],
    });
    expect(properties['attendees']).toEqual({
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        properties: { email: { type: 'string' }, optional: { type: 'boolean', default: false } },
        required: ['email'],
      },
    });
    const listed = listCustomers.parameters['properties'] as Record<string, unknown>;
    expect(listed['expand_fields']).toEqual({
      type: 'array',
      maxItems: 5,
      items: { type: 'string', maxLength: 40 },
    });
    expect(listCustomers.parameters['required']).toBeUndefined();
  });

  it('offers a free-form value as a string described as JSON text, and consent as a boolean', () => {
    const properties = automationCreate.parameters['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['spec']).toEqual({
      type: 'string',
      description: 'The automation spec. Send this object as JSON text.',
    });
    expect(properties['confirm']?.['type']).toBe('boolean');
    expect(properties['confirm']?.['description']).toMatch(/only true confirms/i);
    expect(automationCreate.parameters['required']).toEqual(['spec', 'confirm']);
  });

  it('gives an argument-less tool the empty object schema', () => {
    expect(memoryList.parameters).toEqual({ type: 'object', properties: {} });
    expect(memoryList.definition).toMatchObject({
      name: 'memory_list',
      risk: 'safe',
      requiresApproval: false,
      core: true,
    });
  });

  it('derives whether a tool asks from its risk', () => {
    expect(automationCreate.definition.requiresApproval).toBe(true);
    expect(listCustomers.definition).toMatchObject({ risk: 'safe', requiresApproval: false, readOnly: true });
    const quiet = defineTool({
      name: 'quiet',
      description: 'Caution, but does not ask.',
      asks: false,
      handler: () => '',
    });
    expect(quiet.definition).toMatchObject({ risk: 'caution', requiresApproval: false });
  });
});

describe('a definition that cannot work is refused when it is written', () => {
  const handler = (): string => 'ok';
  const cases: Array<[string, () => unknown, RegExp]> = [
    [
      'a safe tool that asks',
      () => defineTool({ name: 't', description: 'd', risk: 'safe', asks: true, handler }),
      /never asks/,
    ],
    ['an empty description', () => defineTool({ name: 't', description: '  ', handler }), /describes itself/],
    ['a name with spaces', () => defineTool({ name: 'my tool', description: 'd', handler }), /no spaces/],
    [
      'two fields spelling one key',
      () =>
        defineTool({
          name: 't',
          description: 'd',
          fields: { dueDate: field.string(), due_date: field.string() },
          handler,
        }),
      /due_date: spells the same key as dueDate/,
    ],
    [
      'a nested object with no fields',
      () => defineTool({ name: 't', description: 'd', fields: { filter: field.object({}) }, handler }),
      /t\.filter: a nested object declares at least one field/,
    ],
    [
      'bounds the wrong way round',
      () =>
        defineTool({
          name: 't',
          description: 'd',
          fields: { n: field.integer({ min: 5, max: 1 }) },
          handler,
        }),
      /min is above max/,
    ],
    [
      'a default the field refuses',
      () =>
        defineTool({
          name: 't',
          description: 'd',
          fields: { s: field.string({ maxLength: 2, default: 'long' }) },
          handler,
        }),
      /its default is not a value the field accepts/,
    ],
    [
      'an enum with a repeated value',
      () =>
        defineTool({
          name: 't',
          description: 'd',
          fields: { s: field.string({ enum: ['a', 'a'] }) },
          handler,
        }),
      /repeated|twice/,
    ],
    [
      'a field name that is not a plain identifier',
      () => defineTool({ name: 't', description: 'd', fields: { 'a-b': field.string() }, handler }),
      /field name/,
    ],
    [
      'a list item limit that is not a count',
      () =>
        defineTool({
          name: 't',
          description: 'd',
          fields: { l: field.list(field.string(), { maxItems: -1 }) },
          handler,
        }),
      /item limit/,
    ],
  ];
  for (const [what, define, message] of cases) {
    it(`refuses ${what}`, () => {
      expect(define).toThrow(ToolDefinitionError);
      expect(define).toThrow(message);
    });
  }
});
