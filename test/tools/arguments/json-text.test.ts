import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJsonText, jsonSyntaxError, readJsonText } from '../../../src/tools/index.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('decodeJsonText', () => {
  it('decodes JSON text and passes anything else through unchanged', () => {
    expect(decodeJsonText('{"a": 1}')).toEqual({ a: 1 });
    expect(decodeJsonText('[1, 2]')).toEqual([1, 2]);
    expect(decodeJsonText('true')).toBe(true);
    expect(decodeJsonText('```json\n{"a": 1}\n```')).toEqual({ a: 1 });
    const structured = { a: 1 };
    expect(decodeJsonText(structured)).toBe(structured);
    expect(decodeJsonText('not json')).toBe('not json');
    expect(decodeJsonText('')).toBe('');
    expect(decodeJsonText(null)).toBeNull();
  });
});

describe('the decoder’s detail on text that is not JSON', () => {
  const cases: Array<[string, string, number, number]> = [
    ['{"a": 1}}', "found '}' after the end of the JSON value", 1, 9],
    ['{"a": 1,}', "found '}' after a comma (remove the trailing comma)", 1, 9],
    ['{"a" 1}', "expected ':' after a property name, found '1'", 1, 6],
    ['{a: 1}', "expected a property name in double quotes, found 'a'", 1, 2],
    ['{"a": tru}', "expected a value, found 'tru'", 1, 7],
    [
      '{"a": "x\ny"}',
      'a raw control character (such as a line break) inside a string; escape it, e.g. \\n',
      1,
      9,
    ],
    ['["a\\q"]', '\\q is not a JSON escape', 1, 4],
    ['{"a": "b', "the string that starts here never ends (a closing '\"' is missing)", 1, 7],
    ['{"a": 01}', 'a number may not start with a 0 followed by digits', 1, 7],
    ['', 'the text ends where a value should be', 1, 1],
    ['[1, 2', "the text ends inside a list (a ']' is missing)", 1, 6],
    ['{"a": [1, 2}', "expected ',' or ']' after a list item, found '}'", 1, 12],
  ];
  for (const [text, what, line, column] of cases) {
    it(`says what and where for ${JSON.stringify(text)}`, () => {
      expect(jsonSyntaxError(text)).toMatchObject({ what, line, column });
    });
  }

  it('agrees with JSON.parse on what is JSON, for valid texts and every kind of damage to them', () => {
    const damaged = fc
      .tuple(
        fc.json(),
        fc.nat(),
        fc.constantFrom('', '}', ']', ',', ':', '"', '\\', '\n', 'x', '0'),
        fc.boolean(),
      )
      .map(([text, at, insert, remove]) => {
        const i = text.length === 0 ? 0 : at % text.length;
        return text.slice(0, i) + insert + text.slice(remove ? i + 1 : i);
      });
    fc.assert(
      fc.property(fc.oneof(fc.json(), damaged, fc.string()), (text) => {
        const error = jsonSyntaxError(text);
        expect(error === undefined).toBe(parses(text));
        if (error) expect(error.offset).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 3000 },
    );
  });

  it('survives nesting deeper than any call stack', () => {
    const deep = '['.repeat(200_000);
    expect(jsonSyntaxError(deep)?.what).toBe("the text ends inside a list (a ']' is missing)");
  });

  it('reads fenced JSON and reports on its body', () => {
    expect(readJsonText('```\n[1]\n```')).toEqual({ ok: true, value: [1] });
    const broken = readJsonText('```json\n{"a": }\n```');
    expect(broken.ok === false && broken.error).toMatchObject({
      what: "expected a value, found '}'",
      line: 1,
      column: 7,
    });
  });
});
