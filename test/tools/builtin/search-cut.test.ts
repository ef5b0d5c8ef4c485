import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WALKED_ENTRIES } from '../../../src/tools/builtin/walk-files.js';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;

// One folder with more entries than a search looks at, made once. Named pipes, so grep passes each over
// without opening it (a test of how it stops, not of how fast it reads).
beforeAll(async () => {
  ({ bench, tools } = await freshBench());
  const crowd = join(bench.ws, 'a-crowd');
  mkdirSync(crowd);
  execFileSync('bash', ['-c', `seq 1 ${MAX_WALKED_ENTRIES} | xargs mkfifo`], { cwd: crowd });
  writeFileSync(join(bench.ws, 'z-last.txt'), 'the needle\n');
}, 60_000);
afterAll(() => bench.cleanup());

describe('a search that stops after too many folder entries', () => {
  it('grep says it stopped, instead of that no line matches', async () => {
    const result = await tools.invoke('grep', { pattern: 'needle' }, tools.turn());
    expect(result.isError).toBe(false);
    expect(result.content).not.toMatch(/^No line matches \(\d+ files searched\)\.$/);
    expect(result.content).toContain('the search stopped');
  }, 60_000);

  it('glob says so too', async () => {
    const result = await tools.invoke('glob', { pattern: '**/*.txt' }, tools.turn());
    expect(result.content).toContain('the search stopped there');
  }, 60_000);
});
