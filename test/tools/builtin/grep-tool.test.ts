import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(() => ({ bench, tools } = freshBench()));
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
