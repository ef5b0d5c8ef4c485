import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

const KEY = 'sk-live-4f8a2c9e7b1d6f3a';

describe('grep hides secrets before it cuts a matching line', () => {
  it('shows no part of a secret that crosses the 300-character cut', async () => {
    writeFileSync(join(bench.ws, 'long.txt'), `needle ${'x'.repeat(285)}${KEY} tail\n`);
    const ctx = tools.turn({ secrets: new Map([['MODEL_KEY', KEY]]) });
    const result = await tools.invoke('grep', { pattern: 'needle' }, ctx);
    expect(result.content).toContain('long.txt:1: needle');
    expect(result.content).not.toContain(KEY.slice(0, 6));
    expect(result.content).toContain('[secret:MODEL_KEY] … [line cut]');
  });
});

/** A private key as a secret is stored: several lines, each on its own as secret as the whole. */
const PEM = [
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
  'QyNTUxOQAAACBq9Wc3Yl7vR1mQ0r2xJk8fH4gT6pL9sN3dE5aB7cZ1yAAAAJj0kZ3c9JGd',
  '-----END OPENSSH PRIVATE KEY-----',
].join('\n');

describe('grep hides a secret that runs over several lines', () => {
  it('shows none of its lines, though each match is one line', async () => {
    writeFileSync(join(bench.ws, 'id_backup.txt'), `${PEM}\n`);
    const ctx = tools.turn({ secrets: new Map([['DEPLOY_KEY', PEM]]) });
    const result = await tools.invoke('grep', { pattern: 'A' }, ctx);
    expect(result.content).toContain('[secret:DEPLOY_KEY]');
    for (const line of PEM.split('\n')) expect(result.content).not.toContain(line);
  });
});

describe('grep on a file that starts with a byte order mark', () => {
  it('matches ^ on its first line, as on every other line, and shows the line without the mark', async () => {
    writeFileSync(join(bench.ws, 'notes.md'), '\uFEFF# Groceries\r\n# Chores\r\n');
    const result = await tools.invoke('grep', { pattern: '^#', regex: true }, tools.turn());
    expect(result.content).toBe('notes.md:1: # Groceries\nnotes.md:2: # Chores');
  });
});

describe('grep on a line longer than it shows', () => {
  const minified = `${'var a=1;'.repeat(700)}function findNeedle(){return 42}${'b=2;'.repeat(500)}\n`;

  it('shows the part of the line where the match is, literal or regular expression', async () => {
    writeFileSync(join(bench.ws, 'app.min.js'), minified);
    const ctx = tools.turn();
    for (const args of [{ pattern: 'findNeedle' }, { pattern: 'find\\w+\\(', regex: true }]) {
      const result = await tools.invoke('grep', args, ctx);
      expect(result.content, args.pattern).toMatch(
        /^app\.min\.js:1: \[line cut\] … [^\n]*;function findNeedle\(\)/,
      );
      expect(result.content, args.pattern).toMatch(/ … \[line cut\]$/);
      expect(result.content.length, args.pattern).toBeLessThan(400);
    }
  });

  it('hides a secret that the start of what it shows would split', async () => {
    writeFileSync(
      join(bench.ws, 'bundle.js'),
      `${'x'.repeat(5000)}${KEY}${'y'.repeat(90)}needle${'z'.repeat(500)}\n`,
    );
    const ctx = tools.turn({ secrets: new Map([['MODEL_KEY', KEY]]) });
    const result = await tools.invoke('grep', { pattern: 'needle' }, ctx);
    expect(result.content).toContain(`bundle.js:1: [line cut] … [secret:MODEL_KEY]${'y'.repeat(90)}needle`);
    expect(result.content).not.toContain(KEY.slice(-6));
  });
});

describe('grep for text over several lines', () => {
  it('is refused as no line could hold it, in preflight and invoke alike, instead of "no line matches"', async () => {
    writeFileSync(join(bench.ws, 'app.py'), 'def main():\n    run()\n');
    const ctx = tools.turn();
    for (const args of [
      { pattern: 'def main():\n    run()' },
      { pattern: 'main\\(\\):\r\n\\s+run', regex: true },
    ]) {
      const checked = await tools.preflight('grep', args, ctx);
      expect(checked?.data, args.pattern).toEqual({ code: 'several_lines' });
      expect(checked?.content).toContain('one line at a time');
      expect(await tools.invoke('grep', args, ctx)).toEqual(checked);
    }
  });
});
