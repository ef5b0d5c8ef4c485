import { describe, expect, it } from 'vitest';
import { makeToolContext, nearMiss, renderProblems, ToolArgumentsError } from '../../../src/tools/index.js';
import { createEvent, listCustomers, notify, seen } from './sample-tools.js';

describe('an argument the tool does not declare is refused, never dropped', () => {
  it('names the key and lists what the tool takes (the reference notify case)', async () => {
    const result = await notify.run({ text: 'hi', colour: 'red' }, makeToolContext());
    expect(result.isError).toBe(true);
    expect(result.content).toBe('colour: unknown argument; notify takes: text, title');
  });

  it('says which declared name a near miss probably meant', () => {
    seen.calls.length = 0;
    const reading = listCustomers.read({ emails: 'jo@example.com', limit: 2 });
    expect(reading).toEqual({
      ok: false,
      problems: [
        {
          path: 'emails',
          code: 'unknown_argument',
          message:
            'unknown argument (did you mean email?); list_customers takes: email, limit, created, expand_fields',
        },
      ],
    });
    expect(seen.calls).toEqual([]);
  });

  it('refuses an invented filter rather than returning an unfiltered page', async () => {
    seen.calls.length = 0;
    const result = await listCustomers.run({ limit: 2, country: 'NZ' }, makeToolContext());
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^country: unknown argument; list_customers takes: /);
    expect(seen.calls).toEqual([]);
  });

  it('refuses undeclared keys inside nested objects and list items, with their paths', () => {
    const reading = createEvent.read({
      summary: 's',
      start: { dateTime: 'x', timeZon: 'UTC' },
      attendees: [{ email: 'a@b', emial: 'c@d' }],
    });
    expect(reading.ok === false && reading.problems).toEqual([
      {
        path: 'start.timeZon',
        code: 'unknown_argument',
        message: 'unknown field (did you mean timeZone?); start takes: dateTime, timeZone',
      },
      {
        path: 'attendees[0].emial',
        code: 'unknown_argument',
        message: 'unknown field (did you mean email?); attendees[0] takes: email, optional',
      },
    ]);
  });

  it('refuses one argument given under two spellings', () => {
    const reading = createEvent.read({ summary: 's', start: { dateTime: 'x', date_time: 'y' } });
    expect(reading.ok === false && reading.problems).toEqual([
      {
        path: 'start.dateTime',
        code: 'duplicate_argument',
        message: 'given twice, as dateTime and date_time; send it once',
      },
    ]);
  });

  it('suggests only a close name', () => {
    expect(nearMiss('emails', ['email', 'limit'])).toBe('email');
    expect(nearMiss('Emial', ['email'])).toBe('email');
    expect(nearMiss('dueDate', ['due_date'])).toBe('due_date');
    expect(nearMiss('country', ['email', 'limit'])).toBeUndefined();
  });
});

describe('errors are compact for a model and structured for a host', () => {
  it('renders one line per problem, `field: what is wrong`, and keeps the list on the result data', async () => {
    const result = await createEvent.run(
      { summary: 'x'.repeat(201), start: { dateTime: 5 }, sendUpdates: 'some', attendees: '[1, 2' },
      makeToolContext(),
    );
    expect(result.content.split('\n')).toEqual([
      'summary: is 201 characters long; the most it takes is 200',
      'start.dateTime: expected text, got the number 5',
      'sendUpdates: "some" is not one of: none, all, externalOnly',
      "attendees: is not valid JSON: the text ends inside a list (a ']' is missing) at line 1, column 6 (just after `[1, 2`)",
    ]);
    expect(result).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(result.hints).toEqual(['Nothing was run. Call create_event again with these arguments fixed.']);
    expect(result.data).toEqual({
      code: 'invalid_arguments',
      problems: [
        expect.objectContaining({ path: 'summary', code: 'too_long' }),
        expect.objectContaining({ path: 'start.dateTime', code: 'wrong_type' }),
        expect.objectContaining({ path: 'sendUpdates', code: 'not_allowed' }),
        expect.objectContaining({ path: 'attendees', code: 'invalid_json' }),
      ],
    });
  });

  it('throws the same problems as a ToolArgumentsError from parse', () => {
    try {
      listCustomers.parse({ limit: 0 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolArgumentsError);
      const e = error as ToolArgumentsError;
      expect(e.code).toBe('invalid_arguments');
      expect(e.tool).toBe('list_customers');
      expect(e.problems).toEqual([
        { path: 'limit', code: 'too_small', message: '0 is below the minimum, 1' },
      ]);
      expect(e.message).toBe(renderProblems(e.problems));
    }
  });

  it('names the arguments as a whole when they are not an object', () => {
    const reading = notify.read(['hi']);
    expect(reading.ok === false && renderProblems(reading.problems)).toBe(
      'arguments: expected an object, got a list of 1 item',
    );
  });
});

describe('JSON text that is not valid JSON', () => {
  it('is refused with the decoder’s own detail (what and where), not as a type error', () => {
    const reading = createEvent.read({ summary: 's', start: '{"dateTime": "2025-03-01"}}' });
    expect(reading.ok === false && reading.problems).toEqual([
      {
        path: 'start',
        code: 'invalid_json',
        message:
          'is not valid JSON: found \'}\' after the end of the JSON value at line 1, column 27 (just after `": "2025-03-01"}`)',
      },
    ]);
  });

  it('says where in a text of several lines', () => {
    const reading = createEvent.read({ summary: 's', start: '{\n  "dateTime": "x",\n  "timeZone" "UTC"\n}' });
    expect(reading.ok === false && reading.problems[0]?.message).toMatch(
      /^is not valid JSON: expected ':' after a property name, found '"' at line 3, column 14/,
    );
  });

  it('is a type error only when the text was plainly not an attempt at JSON', () => {
    const reading = createEvent.read({ summary: 's', start: 'tomorrow at nine' });
    expect(reading.ok === false && reading.problems).toEqual([
      { path: 'start', code: 'wrong_type', message: 'expected an object, got the text "tomorrow at nine"' },
    ]);
  });
});
