import { describe, expect, it } from 'vitest';
import { defineTool, field, keySpellings, yesOrNo } from '../../../src/tools/index.js';
import { automationCreate, createEvent, imageGenerate, listCustomers } from './sample-tools.js';

describe('a nested object or list sent as JSON text', () => {
  it('is decoded before validation, and each part is then checked as a real one', () => {
    const reading = createEvent.read({
      summary: 'Standup',
      start: '{"dateTime": "2025-03-01T09:00:00Z"}',
      attendees: '[{"email": "a@example.com", "optional": "yes"}, {"email": "b@example.com"}]',
    });
    expect(reading).toEqual({
      ok: true,
      args: {
        summary: 'Standup',
        start: { dateTime: '2025-03-01T09:00:00Z' },
        attendees: [
          { email: 'a@example.com', optional: true },
          { email: 'b@example.com', optional: false },
        ],
        sendUpdates: 'none',
      },
    });
  });

  it('is decoded inside a Markdown code fence too', () => {
    const reading = createEvent.read({ summary: 's', start: '```json\n{"dateTime": "x"}\n```' });
    expect(reading.ok && reading.args.start).toEqual({ dateTime: 'x' });
  });

  it('carries a free-form value: JSON text is decoded, an already structured value passes through', () => {
    const fromText = automationCreate.read({
      spec: '{"every": "day", "at": [9, 17]}',
      catch_up: false,
      confirm: true,
    });
    expect(fromText.ok && fromText.args.spec).toEqual({ every: 'day', at: [9, 17] });
    const given = automationCreate.read({ spec: { every: 'week' }, catch_up: false, confirm: true });
    expect(given.ok && given.args.spec).toEqual({ every: 'week' });
  });
});

describe('keys in camelCase, PascalCase and snake_case', () => {
  it('all resolve, at every depth, for an author who wrote snake_case', () => {
    for (const created of [{ greaterThan: 5 }, { GreaterThan: 5 }, { greater_than: 5 }]) {
      const reading = listCustomers.read({ Limit: 3, created, expandFields: ['data'] });
      expect(reading).toEqual({
        ok: true,
        args: { limit: 3, created: { greater_than: 5 }, expand_fields: ['data'] },
      });
    }
  });

  it('all resolve, at every depth, for an author who wrote camelCase', () => {
    for (const start of [
      { dateTime: 'x', timeZone: 'UTC' },
      { DateTime: 'x', TimeZone: 'UTC' },
      { date_time: 'x', time_zone: 'UTC' },
    ]) {
      const reading = createEvent.read({ Summary: 's', start, send_updates: 'all' });
      expect(reading).toEqual({
        ok: true,
        args: { summary: 's', start: { dateTime: 'x', timeZone: 'UTC' }, sendUpdates: 'all' },
      });
    }
  });

  it('resolve whatever their letter case, with or without separators, when one declared key reads so', () => {
    const tool = defineTool({
      name: 'fetch_user',
      description: 'Fetches a user.',
      risk: 'safe',
      fields: {
        userId: field.string(),
        url: field.string({ optional: true }),
        pageSize: field.integer({ optional: true }),
      },
      handler: () => 'ok',
    });
    for (const given of [
      { userID: 'u1', URL: 'https://a.example', PAGESIZE: '5' },
      { USER_ID: 'u1', Url: 'https://a.example', page_SIZE: 5 },
      { userid: 'u1', url: 'https://a.example', pagesize: 5 },
    ]) {
      expect(tool.read(given)).toEqual({
        ok: true,
        args: { userId: 'u1', url: 'https://a.example', pageSize: 5 },
      });
    }
    const twice = tool.read({ userId: 'u1', USERID: 'u2' });
    expect(twice.ok === false && twice.problems.map((p) => p.code)).toEqual(['duplicate_argument']);
  });

  it('do not resolve by letter case where two declared keys read the same that way', () => {
    const tool = defineTool({
      name: 'pair',
      description: 'Takes two keys that differ only by case.',
      risk: 'safe',
      fields: { abc: field.string({ optional: true }), aBc: field.string({ optional: true }) },
      handler: () => 'ok',
    });
    expect(tool.read({ a_bc: 'x', Abc: 'y' })).toEqual({ ok: true, args: { aBc: 'x', abc: 'y' } });
    const reading = tool.read({ ABC: 'z' });
    expect(reading.ok === false && reading.problems.map((p) => p.code)).toEqual(['unknown_argument']);
  });

  it('spells acronyms and digits the way the three conventions do', () => {
    expect(keySpellings('userID')).toEqual(['userID', 'userId', 'UserId', 'user_id']);
    expect(keySpellings('HTTPServer')).toEqual(['HTTPServer', 'httpServer', 'HttpServer', 'http_server']);
    expect(keySpellings('utf8_text')).toEqual(['utf8_text', 'utf8Text', 'Utf8Text']);
  });
});

describe('booleans are read as the word they spell', () => {
  it('reads the yes words and the no words, in any case, trimmed', () => {
    for (const yes of [true, 'true', 'yes', 'on', '1', 'y', ' TRUE ', 'Yes', 'ON'])
      expect(yesOrNo(yes)).toBe(true);
    for (const no of [false, 'false', 'no', 'off', '0', 'n', ' False ', 'NO', 'Off'])
      expect(yesOrNo(no)).toBe(false);
    for (const neither of ['', '  ', 'maybe', 'truthy', 1, 0, null, [], {}])
      expect(yesOrNo(neither)).toBeUndefined();
  });

  it('reads any other value as the field’s safe value', () => {
    for (const word of ['maybe', '', 1, 0, ['yes']]) {
      const reading = imageGenerate.read({ prompt: 'a cat', edit: word });
      expect(reading.ok && reading.args.edit).toBe(false);
    }
    const yes = imageGenerate.read({ prompt: 'a cat', edit: ' Yes ' });
    expect(yes.ok && yes.args.edit).toBe(true);
  });

  it('refuses an unreadable value, naming the field, where the field has no safe value', () => {
    const reading = automationCreate.read({
      spec: '{}',
      catch_up: 'no',
      ignore_case: 'sometimes',
      confirm: true,
    });
    expect(reading).toEqual({
      ok: false,
      problems: [
        {
          path: 'ignore_case',
          code: 'unreadable_boolean',
          message: 'the text "sometimes" reads as neither yes nor no; send true or false',
        },
      ],
    });
  });

  it('takes consent only as the JSON literal true', () => {
    const base = { spec: '{}', catch_up: false };
    expect(automationCreate.read({ ...base, confirm: true }).ok).toBe(true);
    for (const almost of ['true', 'yes', 1, '', false, 'false', 0]) {
      const reading = automationCreate.read({ ...base, confirm: almost });
      expect(reading.ok).toBe(false);
      if (!reading.ok)
        expect(reading.problems).toEqual([expect.objectContaining({ path: 'confirm', code: 'consent' })]);
    }
    const absent = automationCreate.read(base);
    expect(absent.ok === false && absent.problems[0]).toMatchObject({ path: 'confirm', code: 'required' });
  });

  it('reads an optional consent that is absent or false as no consent', () => {
    const tool = defineTool({
      name: 'purge',
      description: 'Purges.',
      fields: { confirm: field.consent({ optional: true }) },
      handler: (args) => (args.confirm ? 'purged' : 'preview only'),
    });
    expect(tool.read({})).toEqual({ ok: true, args: { confirm: false } });
    expect(tool.read({ confirm: false })).toEqual({ ok: true, args: { confirm: false } });
    expect(tool.read({ confirm: 'true' }).ok).toBe(false);
  });
});

describe('numbers sent as numeric text', () => {
  it('are read as numbers where the field is numeric, and checked against its bounds', () => {
    expect(imageGenerate.read({ prompt: 'p', count: ' 3 ', quality: '0.5' })).toMatchObject({
      ok: true,
      args: { count: 3, quality: 0.5 },
    });
    const over = imageGenerate.read({ prompt: 'p', count: '7' });
    expect(over.ok === false && over.problems).toEqual([
      { path: 'count', code: 'too_large', message: '7 is above the maximum, 4' },
    ]);
  });

  it('are not read where the text is not a number or the field wants a whole one', () => {
    const reading = imageGenerate.read({ prompt: 'p', count: '2.5', quality: 'high' });
    expect(reading.ok === false && reading.problems.map((p) => [p.path, p.code])).toEqual([
      ['count', 'wrong_type'],
      ['quality', 'wrong_type'],
    ]);
  });

  it('are read inside lists too', () => {
    const tool = defineTool({
      name: 'sum',
      description: 'Adds numbers.',
      risk: 'safe',
      fields: { values: field.list(field.number(), { maxItems: 4 }) },
      handler: (args) => String(args.values.reduce((a, b) => a + b, 0)),
    });
    expect(tool.read({ values: '["1", 2, "3e2"]' })).toEqual({ ok: true, args: { values: [1, 2, 300] } });
  });
});

describe('absent values', () => {
  it('reads null as absent: a default applies, an optional field stays out, a required one is refused', () => {
    expect(listCustomers.read({ limit: null, email: null })).toEqual({ ok: true, args: { limit: 10 } });
    const reading = createEvent.read({ summary: null, start: { dateTime: 'x' } });
    expect(reading.ok === false && reading.problems).toEqual([
      { path: 'summary', code: 'required', message: 'is required but was not given' },
    ]);
  });

  it('reads a blank free-form value as absent', () => {
    const tool = defineTool({
      name: 'render',
      description: 'Renders a template.',
      fields: { vars: field.json({ optional: true }) },
      handler: () => 'ok',
    });
    expect(tool.read({ vars: '  ' })).toEqual({ ok: true, args: {} });
    expect(tool.read({ vars: '"just text"' })).toEqual({ ok: true, args: { vars: 'just text' } });
  });
});
