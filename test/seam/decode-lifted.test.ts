import { describe, expect, it } from 'vitest';
import {
  conformParameters,
  decodeLiftedArguments,
  describeLiftFailures,
  type LiftedArgument,
  readJsonText,
} from '../../src/seam/index.js';
import { deepFreeze, obj } from './support.js';

function liftsOf(declared: unknown): readonly LiftedArgument[] {
  return conformParameters(declared).lifted;
}

const declared = obj({
  options: { type: 'object', description: 'free-form' },
  steps: { type: 'array', items: obj({ name: { type: 'string' }, config: { type: 'object' } }) },
  value: { description: 'anything' },
  label: { anyOf: [{ type: 'string' }, { type: 'object' }] },
});

describe('decoding lifted arguments', () => {
  it('turns JSON text back into values, inside lists too, without touching the input', () => {
    const args = deepFreeze({
      options: '{"depth": 2}',
      steps: [{ name: 'a', config: '{"x": [1, 2]}' }, { name: 'b' }],
      value: '42',
      untouched: 'keep "this"',
    });
    const decoded = decodeLiftedArguments(args, liftsOf(declared));
    expect(decoded).toEqual({
      ok: true,
      arguments: {
        options: { depth: 2 },
        steps: [{ name: 'a', config: { x: [1, 2] } }, { name: 'b' }],
        value: 42,
        untouched: 'keep "this"',
      },
    });
  });

  it('passes already-structured values through', () => {
    const args = { options: { depth: 2 }, steps: [{ config: { x: 1 } }] };
    const decoded = decodeLiftedArguments(args, liftsOf(declared));
    expect(decoded.ok && decoded.arguments).toEqual(args);
  });

  it('reads a fenced block and JSON encoded twice', () => {
    const decoded = decodeLiftedArguments(
      { options: '```json\n{"a": 1}\n```', steps: [{ config: JSON.stringify(JSON.stringify({ b: 2 })) }] },
      liftsOf(declared),
    );
    expect(decoded.ok && decoded.arguments).toEqual({ options: { a: 1 }, steps: [{ config: { b: 2 } }] });
  });

  it('keeps plain text where the declared schema also takes a string', () => {
    const lifts = liftsOf(declared);
    expect(decodeLiftedArguments({ label: 'hello' }, lifts)).toEqual({
      ok: true,
      arguments: { label: 'hello' },
    });
    expect(decodeLiftedArguments({ label: '{"k": 1}' }, lifts)).toEqual({
      ok: true,
      arguments: { label: { k: 1 } },
    });
    expect(decodeLiftedArguments({ label: '7' }, lifts)).toEqual({ ok: true, arguments: { label: '7' } });
  });

  it('keeps the text of a number it could not read exactly where the declared schema takes text', () => {
    // An id such as a Discord channel's is past 2^53: read as a number it would name another channel.
    const lifts = liftsOf(
      obj({
        channel: { description: 'The channel id.' },
        count: { anyOf: [{ type: 'object' }, { type: 'integer' }] },
      }),
    );
    expect(decodeLiftedArguments({ channel: '1234567890123456789', count: '12' }, lifts)).toEqual({
      ok: true,
      arguments: { channel: '1234567890123456789', count: 12 },
    });
    expect(decodeLiftedArguments({ channel: '9007199254740991' }, lifts)).toEqual({
      ok: true,
      arguments: { channel: 9007199254740991 },
    });
    expect(decodeLiftedArguments({ channel: '1152921504606846976' }, lifts)).toEqual({
      ok: true,
      arguments: { channel: 2 ** 60 },
    });
    expect(decodeLiftedArguments({ channel: '1e400' }, lifts)).toEqual({
      ok: true,
      arguments: { channel: '1e400' },
    });
    expect(readJsonText('"1234567890123456789"', undefined)).toEqual({
      ok: true,
      value: '1234567890123456789',
    });
  });

  it('names every argument it could not read, with the reader’s detail', () => {
    const decoded = decodeLiftedArguments(
      { options: '{depth: 2}', steps: [{ config: '{}' }, { config: 'not json' }] },
      liftsOf(declared),
    );
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.failures.map((f) => f.argument)).toEqual(['options', 'steps[1].config']);
    expect(decoded.failures[0]?.detail).toMatch(/JSON/);
    const text = describeLiftFailures(decoded.failures);
    expect(text).toContain('The call was not made');
    expect(text).toContain('`steps[1].config`');
    expect(text).toContain('valid JSON text');
  });

  it('calls empty text unreadable where no string is taken', () => {
    expect(readJsonText('  ', ['object'])).toEqual({ ok: false, detail: 'the text is empty' });
    expect(readJsonText('', undefined)).toEqual({ ok: true, value: '' });
    expect(readJsonText('null', ['object'])).toEqual({ ok: true, value: null });
  });

  it('quotes odd property names in the paths it reports', () => {
    const lifts = liftsOf(obj({ 'odd key': { type: 'object' } }));
    expect(lifts.map((l) => l.path)).toEqual(['["odd key"]']);
    const decoded = decodeLiftedArguments({ 'odd key': '[' }, lifts);
    expect(!decoded.ok && decoded.failures[0]?.argument).toBe('["odd key"]');
  });
});

describe('what a lifted argument takes, read through allOf and untyped maps', () => {
  it('refuses broken JSON text for an object declared by allOf or as an untyped map', () => {
    const result = conformParameters({
      type: 'object',
      properties: {
        cfg: { allOf: [{ $ref: '#/definitions/Free' }] },
        env: { additionalProperties: { type: 'string' } },
      },
      definitions: { Free: { type: 'object', properties: {} } },
    });
    expect(result.lifted.map((l) => [l.path, l.takes])).toEqual([
      ['cfg', ['object']],
      ['env', ['object']],
    ]);
    const decoded = decodeLiftedArguments({ cfg: '{"a": 1,}', env: '{"HOME":"/root"}' }, result.lifted);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.failures.map((f) => f.argument)).toEqual(['cfg']);
  });
});
