import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => {
  ({ bench, tools } = await freshBench());
  for (const folder of ['src/core', 'src/cli', 'docs'])
    mkdirSync(join(bench.ws, folder), { recursive: true });
  writeFileSync(join(bench.ws, 'src', 'index.ts'), '');
  writeFileSync(join(bench.ws, 'src', 'core', 'a.ts'), '');
});
afterEach(() => bench.cleanup());

async function glob(args: Record<string, unknown>): Promise<string> {
  return (await tools.invoke('glob', args, tools.turn())).content;
}

describe('glob with a pattern that ends in /', () => {
  it('lists the folders that match, as a shell does, each ending in /', async () => {
    expect(await glob({ pattern: 'src/*/' })).toBe('src/cli/\nsrc/core/');
    expect(await glob({ pattern: '*/' })).toBe('docs/\nsrc/');
  });

  it('says no folder matches when none does, and files still match as before', async () => {
    expect(await glob({ pattern: 'docs/*/' })).toBe('No folder matches docs/*/.');
    expect(await glob({ pattern: 'src/*' })).toBe('src/index.ts');
  });
});
