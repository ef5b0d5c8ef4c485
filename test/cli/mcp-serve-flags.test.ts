import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

const dir = mkdtempSync(join(tmpdir(), 'toolseam-mcp-serve-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) => toolseamInProcessWithoutKeys(['mcp-serve', ...args], dir);

describe('toolseam mcp-serve flags', () => {
  it('shows its usage with --help, naming the transports and the serve list', async () => {
    const { code, stdout } = await run('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('usage: toolseam mcp-serve');
    expect(stdout).toContain('--http PORT');
    expect(stdout).toContain('"serve": {"tools": [...]}');
  });

  it('refuses a port that is not one, --host without --http, and words without --tools, before anything starts', async () => {
    const port = await run('--http', 'eighty');
    expect(port.code).not.toBe(0);
    expect(port.stderr).toContain('--http takes a port number from 0 to 65535');
    const host = await run('--host', '0.0.0.0');
    expect(host.code).not.toBe(0);
    expect(host.stderr).toContain('--host goes with --http PORT');
    const words = await run('read_file');
    expect(words.code).not.toBe(0);
    expect(words.stderr).toContain('name tools with --tools PATTERN');
  });
});
