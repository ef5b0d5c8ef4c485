import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

function stoppedTurn() {
  const controller = new AbortController();
  controller.abort();
  return tools.turn({ signal: controller.signal });
}

describe('a search whose turn is stopped', () => {
  beforeEach(() => {
    mkdirSync(join(bench.ws, 'src'));
    writeFileSync(join(bench.ws, 'src', 'main.ts'), 'export const answer = 42;\n');
  });

  it('grep says it was stopped instead of reporting that nothing matches', async () => {
    const result = await tools.invoke('grep', { pattern: 'answer' }, stoppedTurn());
    expect(result).toMatchObject({ isError: true, data: { code: 'stopped' } });
    expect(result.content).not.toContain('No line matches');
  });

  it('glob says it was stopped instead of reporting that no file matches', async () => {
    const result = await tools.invoke('glob', { pattern: '**/*.ts' }, stoppedTurn());
    expect(result).toMatchObject({ isError: true, data: { code: 'stopped' } });
    expect(result.content).not.toContain('No file match');
  });
});
