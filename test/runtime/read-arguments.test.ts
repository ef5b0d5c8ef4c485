import { describe, expect, it } from 'vitest';
import { readArguments } from '../../src/runtime/calls/read-arguments.js';

describe('readArguments', () => {
  it('reads a JSON object as sent', () => {
    expect(readArguments('{"path":"a.txt","limit":3}')).toEqual({
      ok: true,
      args: { path: 'a.txt', limit: 3 },
      recovered: false,
    });
  });

  it('reads empty text as no arguments', () => {
    expect(readArguments('  ')).toMatchObject({ ok: true, args: {} });
  });

  it('recovers an object inside a Markdown fence', () => {
    expect(readArguments('```json\n{"q": "plans"}\n```')).toEqual({
      ok: true,
      args: { q: 'plans' },
      recovered: true,
    });
  });

  it('recovers an object encoded twice', () => {
    expect(readArguments(JSON.stringify('{"q":"plans"}'))).toEqual({
      ok: true,
      args: { q: 'plans' },
      recovered: true,
    });
  });

  it('refuses text that is not JSON, with the parser detail', () => {
    const read = readArguments('{"q": "plans"');
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.detail).toMatch(/JSON/);
  });

  it('refuses JSON that is not an object, saying what it is', () => {
    expect(readArguments('[1,2]')).toEqual({
      ok: false,
      detail: 'the arguments are an array, not an object',
    });
    expect(readArguments('"just words"')).toMatchObject({ ok: false });
    expect(readArguments('42')).toEqual({ ok: false, detail: 'the arguments are a number, not an object' });
    expect(readArguments('"true"')).toEqual({
      ok: false,
      detail: 'the arguments are a boolean, not an object',
    });
  });

  it('names null when the arguments are null encoded twice (the JSON text "null")', () => {
    expect(readArguments('"null"')).toEqual({ ok: false, detail: 'the arguments are null, not an object' });
  });

  it('passes an already-parsed object through', () => {
    const args = { a: 1 };
    expect(readArguments(args)).toEqual({ ok: true, args, recovered: false });
  });
});
