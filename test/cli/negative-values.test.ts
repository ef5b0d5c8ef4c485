import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { negativeValuesJoined } from '../../src/cli/negative-values.js';
import { toolseamInProcess } from './toolseam-in-process.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-negative-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a negative number after an option that takes one', () => {
  it("gets the command's own message, as with --NAME=-1 (not Node's 'argument is ambiguous')", async () => {
    const port = await toolseamInProcess(['dev-provider', '--family', 'openai', '--port', '-1'], dir);
    const joined = await toolseamInProcess(['dev-provider', '--family', 'openai', '--port=-1'], dir);
    expect(port.code).toBe(2);
    expect(port.stderr).not.toMatch(/ambiguous/);
    expect(port.stderr).toBe(joined.stderr);
    const k = await toolseamInProcess(['retrieval', 'eval', 'data.json', '--k', '-1'], dir);
    expect(k.code).toBe(2);
    expect(k.stderr).toBe('toolseam retrieval: --k must be a whole number of at least 1, not "-1".\n');
  });

  it('joins only a number-like value, and nothing after --', () => {
    expect(negativeValuesJoined(['--limit', '-1', '--json'], ['limit'])).toEqual(['--limit=-1', '--json']);
    expect(negativeValuesJoined(['--limit', '--json'], ['limit'])).toEqual(['--limit', '--json']);
    expect(negativeValuesJoined(['--k', '-2'], ['limit'])).toEqual(['--k', '-2']);
    expect(negativeValuesJoined(['--', '--limit', '-1'], ['limit'])).toEqual(['--', '--limit', '-1']);
  });
});
