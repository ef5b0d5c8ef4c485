import { describe, expect, it } from 'vitest';
import { parseUserJson } from '../../src/core/read-json-file.js';

describe('parseUserJson: JSON a person wrote', () => {
  it('reads valid JSON, a byte-order mark allowed', () => {
    expect(parseUserJson('\ufeff{"a": [1]}')).toEqual({ ok: true, data: { a: [1] } });
  });

  it.each([
    ['hi\nthere\n', "expected a value, found 'hi' at line 1, column 1"],
    ['{\n  "a": 1,\n}\n', "found '}' after a comma (remove the trailing comma) at line 3, column 1"],
    ['{"a": 1}\n}\n', "found '}' after the end of the JSON value at line 2, column 1"],
  ])('says in one line what is wrong in %j and where', (text, problem) => {
    const parsed = parseUserJson(text);
    expect(parsed.ok).toBe(false);
    const said = parsed.ok ? '' : parsed.problem;
    expect(said).toContain(problem);
    expect(said).not.toMatch(/\n/);
  });
});
