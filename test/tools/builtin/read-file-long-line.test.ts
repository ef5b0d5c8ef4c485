import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

/** Minified JSON on one line: `{"items":[{"n":0,"word":"w0"},…]}`, about 30 characters an item. */
function minified(items: number): string {
  return JSON.stringify({ items: Array.from({ length: items }, (_, n) => ({ n, word: `w${n}` })) });
}

/** The text after the number and tab of a result's first line. */
const textOf = (content: string) => (content.split('\n')[0] ?? '').replace(/^ *\d+\t/, '');
const noteOf = (content: string) => content.split('\n').at(-1) ?? '';

describe('read_file on a file that is one enormous line', () => {
  it('reads the whole line in bounded pieces, each note saying where the next one starts', async () => {
    const json = minified(20_000);
    writeFileSync(join(bench.ws, 'data.json'), `${json}\n`);
    const ctx = tools.turn({ resultChars: 20_000 });
    let column = 1;
    let joined = '';
    let calls = 0;
    for (;;) {
      const args = column === 1 ? { path: 'data.json' } : { path: 'data.json', offset: 1, column };
      const result = await tools.invoke('read_file', args, ctx);
      expect(result.isError).toBe(false);
      expect(result.content.length).toBeLessThanOrEqual(20_000);
      const piece = textOf(result.content);
      expect(piece.length).toBeGreaterThan(1_000);
      joined += piece;
      calls += 1;
      const note = noteOf(result.content);
      const total = json.length.toLocaleString('en-US');
      const next = /Call read_file with offset 1 and column (\d+) to read on\.\]$/.exec(note);
      if (next === null) {
        expect(note).toMatch(
          new RegExp(
            `characters [\\d,]+–${total} of ${total}, the end of the line\\. That is the end\\.\\]$`,
          ),
        );
        break;
      }
      expect(note).toContain(`–${(Number(next[1]) - 1).toLocaleString('en-US')} of ${total}`);
      column = Number(next[1]);
      expect(calls).toBeLessThan(100);
    }
    expect(joined).toBe(json);
  });

  it('says where a long line in the middle of a file was cut and how to read the rest of it', async () => {
    const json = minified(500);
    writeFileSync(join(bench.ws, 'mixed.txt'), `first\n${json}\nlast\n`);
    const result = await tools.invoke(
      'read_file',
      { path: 'mixed.txt' },
      tools.turn({ resultChars: 20_000 }),
    );
    expect(result.content).toContain(`     3\tlast`);
    expect(noteOf(result.content)).toBe(
      `[line 2 is ${json.length.toLocaleString('en-US')} characters, cut after 2,000: call read_file with offset 2 and column 2001 to read the rest of it.]`,
    );
    const rest = await tools.invoke(
      'read_file',
      { path: 'mixed.txt', offset: 2, column: 2001 },
      tools.turn(),
    );
    expect(textOf(rest.content)).toBe(json.slice(2000));
    expect(noteOf(rest.content)).toBe(
      `[line 2 of 3: characters 2,001–${json.length.toLocaleString('en-US')} of ${json.length.toLocaleString('en-US')}, the end of the line. Call read_file with offset 3 to read on.]`,
    );
  });

  it('refuses a column past the end of the line, saying how long it is', async () => {
    writeFileSync(join(bench.ws, 'short.txt'), 'abc\n');
    const result = await tools.invoke(
      'read_file',
      { path: 'short.txt', offset: 1, column: 10 },
      tools.turn(),
    );
    expect(result).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(result.content).toContain(
      'column 10 is past the end of line 1 of short.txt, which has 3 characters.',
    );
  });
});
