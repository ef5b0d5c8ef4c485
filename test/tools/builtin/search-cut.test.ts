import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;

/** A limit of the host's choosing, small so the folder past it is quick to make on a busy machine. */
const LIMIT = 2_000;

// One folder with more entries than a search looks at, made once. Named pipes, so grep passes each over
// without opening it (a test of how it stops, not of how fast it reads).
beforeAll(async () => {
  ({ bench, tools } = await freshBench({ searchEntryLimit: LIMIT }));
  const crowd = join(bench.ws, 'a-crowd');
  mkdirSync(crowd);
  execFileSync('bash', ['-c', `seq 1 ${LIMIT} | xargs mkfifo`], { cwd: crowd });
  writeFileSync(join(bench.ws, 'z-last.txt'), 'the needle\n');
});
afterAll(() => bench.cleanup());

describe('a search that stops after too many folder entries', () => {
  it('grep says it stopped, instead of that no line matches', async () => {
    const result = await tools.invoke('grep', { pattern: 'needle' }, tools.turn());
    expect(result.isError).toBe(false);
    expect(result.content).not.toMatch(/^No line matches \(\d+ files searched\)\.$/);
    expect(result.content).toContain('the search stopped');
  });

  it('glob says so too', async () => {
    const result = await tools.invoke('glob', { pattern: '**/*.txt' }, tools.turn());
    expect(result.content).toContain('the search stopped there');
    expect(result.content).toContain('first 2,000 entries');
  });
});
