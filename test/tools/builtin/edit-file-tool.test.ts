import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Bench, freshBench, type Tools } from './builtin-fixture.js';

let bench: Bench;
let tools: Tools;
beforeEach(async () => ({ bench, tools } = await freshBench()));
afterEach(() => bench.cleanup());

describe('edit_file on the last line of a \\r\\n file that has no final line break', () => {
  it('writes the lines it adds there with \\r\\n, as the rest of the file', async () => {
    const full = join(bench.ws, 'hosts.txt');
    writeFileSync(full, 'alpha\r\nbeta');
    const ctx = tools.turn();
    await tools.invoke('read_file', { path: 'hosts.txt' }, ctx);
    const result = await tools.invoke(
      'edit_file',
      { path: 'hosts.txt', old_text: 'beta', new_text: 'beta\ngamma' },
      ctx,
    );
    expect(result.isError).toBe(false);
    expect(readFileSync(full, 'utf8')).toBe('alpha\r\nbeta\r\ngamma');
  });
});
