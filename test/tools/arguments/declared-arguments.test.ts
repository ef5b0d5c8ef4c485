import { describe, expect, it } from 'vitest';
import {
  argumentRefusalNote,
  asClientSends,
  missingArguments,
  mistypedArguments,
  refuseMissingArguments,
  refuseMistypedArguments,
  renderProblems,
} from '../../../src/tools/index.js';

const readFiles = {
  type: 'object',
  properties: { paths: { type: 'array', items: { type: 'string' }, description: 'Files to read.' } },
  required: ['paths'],
};

const lines = (problems: ReturnType<typeof missingArguments>): string[] =>
  renderProblems(problems).split('\n');

describe('mistypedArguments judges only the declared type', () => {
  it('refuses a string where the schema declares an array (the reference read_multiple_files case)', () => {
    const refusal = refuseMistypedArguments(
      'mcp/notes-vault/read_multiple_files',
      { paths: 'daily/today.md' },
      readFiles,
      {
        asClientSends: true,
      },
    );
    expect(refusal).toMatchObject({ isError: true, notRun: 'mistyped_arguments', refusedBy: 'preflight' });
    expect(refusal?.content.split('\n')).toEqual([
      'mcp/notes-vault/read_multiple_files was not run: an argument is not of the type its input schema declares.',
      '- paths: expected an array, got the text "daily/today.md"',
      `Its input schema: ${JSON.stringify(readFiles)}`,
      'Call it again with each argument of the type its schema declares.',
    ]);
    expect(refusal?.content).toContain('"paths":{"type":"array"');
  });

  it('judges arguments as the MCP client sends them: JSON text of a list is the list', () => {
    const args = { paths: '["daily.md", "weekly.md"]' };
    expect(mistypedArguments(args, readFiles, { asClientSends: true })).toEqual([]);
    expect(mistypedArguments(args, readFiles)).toHaveLength(1);
  });

  it('says where the JSON text of a list breaks, instead of calling it a text (a model would change the structure and keep the slip)', () => {
    const problems = mistypedArguments({ paths: '["daily.md", "weekly.md"' }, readFiles, {
      asClientSends: true,
    });
    expect(problems).toEqual([
      {
        path: 'paths',
        code: 'invalid_json',
        message:
          'is not valid JSON: the text ends inside a list (a \']\' is missing) at line 1, column 25 (just after `md", "weekly.md"`)',
      },
    ]);
    // A text that is no attempt at a list is still a type error.
    expect(lines(mistypedArguments({ paths: 'daily.md' }, readFiles, { asClientSends: true }))).toEqual([
      'paths: expected an array, got the text "daily.md"',
    ]);
  });

  it('names the item that is wrong, by its path', () => {
    expect(lines(mistypedArguments({ paths: ['daily.md', 7] }, readFiles))).toEqual([
      'paths[1]: expected a string, got the number 7',
    ]);
  });

  it('refuses nothing for patterns, enums, unions, type lists or extra keys', () => {
    const cases: Array<[unknown, unknown]> = [
      [{ name: 'x!' }, { type: 'object', properties: { name: { type: 'string', pattern: '^[a-z]+$' } } }],
      [{ mode: 'other' }, { type: 'object', properties: { mode: { type: 'string', enum: ['a', 'b'] } } }],
      [
        { n: 'text' },
        { type: 'object', properties: { n: { anyOf: [{ type: 'integer' }, { type: 'null' }] } } },
      ],
      [{ n: 'text' }, { type: 'object', properties: { n: { type: ['integer', 'string'] } } }],
      [
        { a: 1, extra: true },
        { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false },
      ],
      [
        { when: 'yesterday' },
        { type: 'object', properties: { when: { type: 'string', format: 'date-time' } } },
      ],
    ];
    for (const [args, schema] of cases) expect(mistypedArguments(args, schema)).toEqual([]);
  });

  it('refuses nothing when the schema cannot be read', () => {
    const args = { name: 5 };
    expect(
      mistypedArguments(args, { type: 'object', required: 'x', properties: { name: { type: 'string' } } }),
    ).toEqual([]);
    expect(mistypedArguments(args, null)).toEqual([]);
    expect(mistypedArguments(args, {})).toEqual([]);
    expect(mistypedArguments(args, 'not a schema')).toEqual([]);
    expect(mistypedArguments(args, { type: 'object', properties: { name: { type: 'text' } } })).toEqual([]);
    const remote = { type: 'object', properties: { name: { $ref: 'https://example.com/name.json' } } };
    expect(mistypedArguments(args, remote)).toEqual([]);
  });

  it('refuses a plain type mismatch', () => {
    expect(
      lines(mistypedArguments({ name: 5 }, { type: 'object', properties: { name: { type: 'string' } } })),
    ).toEqual(['name: expected a string, got the number 5']);
  });

  it('follows local $refs, allOf and nested items, and stops at five problems', () => {
    const schema = {
      type: 'object',
      $defs: {
        tag: { type: 'object', properties: { label: { type: 'string' }, weight: { type: 'integer' } } },
      },
      properties: {
        tags: { type: 'array', items: { $ref: '#/$defs/tag' } },
        meta: { allOf: [{ properties: { size: { type: 'number' } } }] },
      },
    };
    const args = {
      meta: { size: 'big' },
      tags: [
        { label: 1, weight: 2.5 },
        { label: 'ok', weight: 3 },
        { label: true },
        { label: null },
        { label: [] },
      ],
    };
    expect(lines(mistypedArguments(args, schema))).toEqual([
      'tags[0].label: expected a string, got the number 1',
      'tags[0].weight: expected an integer, got the number 2.5',
      'tags[2].label: expected a string, got the boolean true',
      'tags[3].label: expected a string, got null',
      'tags[4].label: expected a string, got an empty list',
    ]);
  });

  it('survives a recursive schema', () => {
    const tree = {
      type: 'object',
      $defs: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
      properties: { root: { $ref: '#/$defs/node' } },
    };
    const args = { root: { name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] } };
    expect(lines(mistypedArguments(args, tree))).toEqual([
      'root.children[0].children[0].name: expected a string, got the number 3',
    ]);
  });
});

describe('a schema that reaches one node by several $refs and allOf branches', () => {
  const schema = {
    type: 'object',
    properties: {
      title: {
        type: 'string',
        allOf: [
          { minLength: 1, type: 'string' },
          { maxLength: 80, type: 'string' },
        ],
      },
      owner: { allOf: [{ $ref: '#/$defs/Named' }, { $ref: '#/$defs/Named' }, { required: ['name'] }] },
    },
    $defs: { Named: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
  };

  it('names each problem once', () => {
    expect(lines(mistypedArguments({ title: 3, owner: { name: 4 } }, schema))).toEqual([
      'title: expected a string, got the number 3',
      'owner.name: expected a string, got the number 4',
    ]);
    expect(lines(missingArguments({ owner: {} }, schema))).toEqual([
      'owner.name: is required but was not given',
    ]);
  });

  it('reads a chain of definitions that each reach the next twice, and one that reaches itself, in one pass', () => {
    const defs: Record<string, unknown> = { D30: { type: 'object', required: ['id'] } };
    for (let i = 0; i < 30; i++)
      defs[`D${i}`] = { allOf: [{ $ref: `#/$defs/D${i + 1}` }, { $ref: `#/$defs/D${i + 1}` }] };
    defs.Self = { allOf: [{ $ref: '#/$defs/Self' }, { $ref: '#/$defs/Self' }], type: 'object' };
    const chain = {
      type: 'object',
      properties: { item: { $ref: '#/$defs/D0' }, self: { $ref: '#/$defs/Self' } },
      $defs: defs,
    };
    expect(lines(missingArguments({ item: {}, self: {} }, chain))).toEqual([
      'item.id: is required but was not given',
    ]);
    expect(mistypedArguments({ item: {}, self: 'x' }, chain)).toHaveLength(1);
    // Nothing to report, so nothing cuts the reading short: each definition is read once per path.
    expect(missingArguments({ item: { id: 1 }, self: {} }, chain)).toEqual([]);
  });
});

describe('missingArguments judges only what is required', () => {
  it('names each required argument left out, through nested objects, items and refs', () => {
    const schema = {
      type: 'object',
      definitions: {
        step: { type: 'object', properties: { title: { type: 'string' } }, required: ['title', 'done'] },
      },
      properties: {
        query: { type: 'string', minLength: 3 },
        filter: { type: 'object', properties: { since: { type: 'string' } }, required: ['since'] },
        steps: { type: 'array', items: { $ref: '#/definitions/step' } },
      },
      required: ['query', 'filter'],
    };
    expect(
      lines(missingArguments({ filter: {}, steps: [{ title: 't', done: false }, { done: true }] }, schema)),
    ).toEqual([
      'query: is required but was not given',
      'filter.since: is required but was not given',
      'steps[1].title: is required but was not given',
    ]);
    expect(missingArguments({ query: 'x', filter: { since: 'monday' } }, schema)).toEqual([]);
  });

  it('counts another spelling of a key as given only for a tool that reads spellings, at every depth', () => {
    const schema = {
      type: 'object',
      properties: {
        due_date: { type: 'string' },
        repeat_rule: {
          type: 'object',
          properties: { every_days: { type: 'integer' } },
          required: ['every_days'],
        },
      },
      required: ['due_date', 'repeat_rule'],
    };
    const args = { dueDate: 'friday', RepeatRule: { everyDays: 3 } };
    expect(missingArguments(args, schema, { keySpellings: true })).toEqual([]);
    expect(lines(missingArguments(args, schema))).toEqual([
      'due_date: is required but was not given',
      'repeat_rule: is required but was not given',
    ]);
    // The nested object is reached under the spelling it was given, and still judged there.
    expect(
      lines(missingArguments({ due_date: 'x', repeatRule: {} }, schema, { keySpellings: true })),
    ).toEqual(['repeat_rule.every_days: is required but was not given']);
  });

  it('does not judge types, and treats absent arguments as an empty object', () => {
    expect(missingArguments({ paths: 'daily.md' }, readFiles)).toEqual([]);
    expect(lines(missingArguments(undefined, readFiles))).toEqual(['paths: is required but was not given']);
  });

  it('writes the note with the schema, or a pointer to tool_schema when the schema is large', () => {
    const refusal = refuseMissingArguments('search', {}, readFiles);
    expect(refusal).toMatchObject({
      notRun: 'missing_arguments',
      refusedBy: 'preflight',
      data: { code: 'missing_arguments' },
    });
    expect(refusal?.content).toBe(
      [
        'search was not run: the call leaves out an argument its input schema requires.',
        '- paths: is required but was not given',
        `Its input schema: ${JSON.stringify(readFiles)}`,
        'Call it again with every required argument.',
      ].join('\n'),
    );
    const large = { ...readFiles, description: 'x'.repeat(2100) };
    const note = argumentRefusalNote('search', 'missing', missingArguments({}, large), large);
    expect(note).toContain('Call tool_schema("search") to see its input schema.');
    expect(note).not.toContain('xxxx');
    expect(refuseMissingArguments('search', { paths: [] }, readFiles)).toBeUndefined();
  });
});

describe('asClientSends', () => {
  const schema = {
    type: 'object',
    properties: {
      count: { type: 'integer' },
      ratio: { type: 'number' },
      flag: { type: 'boolean' },
      list: { type: 'array', items: { type: 'string' } },
      obj: { type: 'object', properties: { a: { type: 'integer' } } },
      either: { type: ['string', 'integer'] },
      union: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
      name: { type: 'string' },
    },
  };

  it('reads numeric text and JSON text once, only where the field takes no string', () => {
    const args = {
      count: '12',
      ratio: '1e3',
      flag: 'true',
      list: '["a"]',
      obj: '{"a": 1}',
      either: '5',
      union: '5',
      name: '7',
      other: '8',
    };
    expect(asClientSends(args, schema)).toEqual({
      count: 12,
      ratio: 1000,
      flag: true,
      list: ['a'],
      obj: { a: 1 },
      either: '5',
      union: '5',
      name: '7',
      other: '8',
    });
    expect(args.count).toBe('12');
  });

  it('reads the properties behind a root $ref and in root allOf branches too', () => {
    // zod-to-json-schema given a name writes the root as a reference into `definitions`.
    const named = { $ref: '#/definitions/Args', definitions: { Args: schema } };
    const merged = {
      type: 'object',
      allOf: [{ $ref: '#/$defs/Paging' }, { properties: { name: { type: 'string' } } }],
      $defs: { Paging: { properties: { count: { type: 'integer' } } } },
    };
    expect(asClientSends({ count: '12', list: '["a"]', name: '7' }, named)).toEqual({
      count: 12,
      list: ['a'],
      name: '7',
    });
    expect(asClientSends({ count: '12', name: '7' }, merged)).toEqual({ count: 12, name: '7' });
    expect(mistypedArguments({ count: '12' }, named, { asClientSends: true })).toEqual([]);
    // A property another branch declares as text is left alone.
    const split = { ...merged, properties: { count: { type: 'string' } } };
    expect(asClientSends({ count: '12' }, split)).toEqual({ count: '12' });
  });

  it('reads JSON text in a Markdown code fence, as an in-process tool does', () => {
    const args = { list: '```json\n["a", "b"]\n```', obj: ' {"a": 1}' };
    expect(asClientSends(args, schema)).toEqual({ list: ['a', 'b'], obj: { a: 1 } });
  });

  it('reads a type list whole: text becomes whichever of its types it spells', () => {
    const listed = {
      type: 'object',
      properties: {
        amount: { type: ['integer', 'number'] },
        limit: { type: ['integer', 'boolean', 'null'] },
        filter: { type: ['array', 'object'] },
      },
    };
    const args = { amount: '1.5', limit: 'false', filter: '{"tag": "x"}' };
    expect(asClientSends(args, listed)).toEqual({ amount: 1.5, limit: false, filter: { tag: 'x' } });
    expect(mistypedArguments(args, listed, { asClientSends: true })).toEqual([]);
    expect(asClientSends({ amount: '2', limit: '3', filter: '["x"]' }, listed)).toEqual({
      amount: 2,
      limit: 3,
      filter: ['x'],
    });
    // Every declaration must take the value: an integer beside a number takes only integer text.
    const merged = { ...listed, allOf: [{ properties: { amount: { type: 'integer' } } }] };
    expect(asClientSends({ amount: '1.5' }, merged)).toEqual({ amount: '1.5' });
    expect(asClientSends({ amount: '7' }, merged)).toEqual({ amount: 7 });
  });

  it('reads numeric, boolean and JSON text inside nested objects and list items as it does at the top', () => {
    const nested = {
      type: 'object',
      properties: {
        opts: {
          type: 'object',
          properties: { depth: { type: 'integer' }, fast: { type: 'boolean' }, label: { type: 'string' } },
        },
        ids: { type: 'array', items: { type: 'integer' } },
        rows: { type: 'array', items: { $ref: '#/$defs/Row' } },
      },
      $defs: { Row: { type: 'object', properties: { qty: { type: 'number' } } } },
    };
    const args = {
      opts: { depth: '2', fast: 'true', label: '3' },
      ids: ['1', 2, '3'],
      rows: '[{"qty": "1.5"}]',
    };
    expect(asClientSends(args, nested)).toEqual({
      opts: { depth: 2, fast: true, label: '3' },
      ids: [1, 2, 3],
      rows: [{ qty: 1.5 }],
    });
    expect(mistypedArguments(args, nested, { asClientSends: true })).toEqual([]);
    expect(lines(mistypedArguments({ opts: { depth: 'deep' } }, nested, { asClientSends: true }))).toEqual([
      'opts.depth: expected an integer, got the text "deep"',
    ]);
    const broken = mistypedArguments({ ids: ['1'], opts: { fast: true } }, nested, { asClientSends: true });
    expect(broken).toEqual([]);
  });

  it('leaves text alone that does not spell the field’s kind exactly', () => {
    const args = { count: '1.5', ratio: 'NaN', flag: 'yes', list: '{"a": 1}', obj: '"{\\"a\\": 1}"' };
    expect(asClientSends(args, schema)).toBe(args);
  });
});
