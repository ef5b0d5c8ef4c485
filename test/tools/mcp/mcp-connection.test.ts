import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { brokenStdio } from '../../support/mcp-servers.js';
import { alive } from '../../support/process-alive.js';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Resolves with the first thing `read` gives that is not undefined, asking again until it does. */
async function eventually<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(process.platform === 'win32')('closing an MCP server that is still starting', () => {
  it('does not wait for a server that never answers initialize: the start ends as closed, its process is gone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolseam-start-'));
    folders.push(dir);
    const pidFile = join(dir, 'server.pid');
    const server = brokenStdio('mute', 'hang-start');
    const provider = createMcpProvider(
      {
        ...server,
        command: '/bin/sh',
        args: ['-c', `echo $$ > '${pidFile}'; exec "$0" "$1" "$2"`, server.command, ...server.args],
      },
      // Far past the test's own timeout: only the close can end this start.
      { timeouts: { startMs: 120_000 } },
    );
    const listing = provider.listTools().catch((e: unknown) => e);
    const pid = await eventually(() =>
      readFile(pidFile, 'utf8').then(
        (text) => (text.trim() === '' ? undefined : Number(text)),
        () => undefined,
      ),
    );
    await provider.close();
    expect(await listing).toMatchObject({ kind: 'closed', server: 'mute' });
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
  });
});
