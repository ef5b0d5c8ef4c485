import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => {
  ({ bench, tools } = await freshBench());
  mkdirSync(join(bench.ws, 'Docs', '2024'), { recursive: true });
  writeFileSync(join(bench.ws, 'Docs', 'README.md'), 'read me\n');
  writeFileSync(join(bench.ws, 'Docs', '2024', 'Plan.txt'), 'plan\n');
});
afterEach(() => bench.cleanup());

async function glob(args: Record<string, unknown>): Promise<string> {
  return (await tools.invoke('glob', args, tools.turn())).content;
}

describe('glob with ignore_case', () => {
  it('finds a path written without wildcards in another case', async () => {
    expect(await glob({ pattern: 'docs/readme.md', ignore_case: true })).toBe('Docs/README.md');
    expect(await glob({ pattern: 'readme.MD', path: 'Docs', ignore_case: true })).toBe('Docs/README.md');
    expect(await glob({ pattern: './DOCS/2024/plan.TXT', ignore_case: true })).toBe('Docs/2024/Plan.txt');
    expect(await glob({ pattern: 'docs', ignore_case: true })).toBe('Docs');
  });

  it('also in the folders written before the first wildcard', async () => {
    expect(await glob({ pattern: 'docs/**/*.txt', ignore_case: true })).toBe('Docs/2024/Plan.txt');
  });

  it('takes an absolute pattern’s leading folders as written, and the rest in either case', async () => {
    expect(await glob({ pattern: join(bench.ws, 'Docs', 'readme.md'), ignore_case: true })).toBe(
      'Docs/README.md',
    );
  });

  it('leaves the case alone without it', async () => {
    expect(await glob({ pattern: 'docs/readme.md' })).toContain('does not exist');
    expect(await glob({ pattern: 'Docs/README.md' })).toBe('Docs/README.md');
  });
});
