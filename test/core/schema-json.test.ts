import { describe, expect, it } from 'vitest';
import { mayHoldHalfCharacters, schemaJson, schemaJsonLength } from '../../src/core/schema-json.js';

describe('a schema’s JSON text', () => {
  it('is the text JSON.stringify writes', () => {
    const schema = {
      type: 'object',
      properties: { q: { type: 'string', description: 'a “quote”, \\ and 😀' } },
    };
    expect(schemaJson(schema)).toBe(JSON.stringify(schema));
    expect(schemaJsonLength(schema)).toBe(JSON.stringify(schema).length);
    // Past the texts kept, the length is still known and the text is written again.
    const others = Array.from({ length: 300 }, (_, i) => ({ type: 'string', maxLength: i }));
    for (const o of others) schemaJson(o);
    expect(schemaJsonLength(schema)).toBe(JSON.stringify(schema).length);
    expect(schemaJson(schema)).toBe(JSON.stringify(schema));
  });

  it('shows when no string of the schema holds half of a character', () => {
    const whole = { description: 'é, 中文, 😀, \u2028, a tab\t and a \\ backslash', enum: ['😀😀'] };
    expect(mayHoldHalfCharacters(schemaJson(whole))).toBe(false);
    // Each half of 😀 alone, in a value, in a list and in a key.
    for (const half of ['\ud83d', '\ude00']) {
      expect(mayHoldHalfCharacters(schemaJson({ description: `cut ${half}` }))).toBe(true);
      expect(mayHoldHalfCharacters(schemaJson({ enum: ['a', half] }))).toBe(true);
      expect(mayHoldHalfCharacters(schemaJson({ properties: { [`k${half}`]: {} } }))).toBe(true);
    }
  });

  it('only asks for a closer look when a backslash stands before "ud"', () => {
    expect(mayHoldHalfCharacters(schemaJson({ pattern: '\\udp' }))).toBe(true);
  });
});
