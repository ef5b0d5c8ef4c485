import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { brokenStdio } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';
import { alive } from '../../support/process-alive.js';

const open: McpToolProvider[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
  await Promise.all(folders.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/**
 * The broken test server in `mode`, started by a shell that first puts a helper (`sleep`) in the
 * background, as servers that start a browser or a language server do; `helperOutput` is where the
 * helper's output goes (`/dev/null`, or inherited: the server's own stdout).
 */
async function withHelper(
  name: string,
  helperOutput: 'released' | 'inherited',
  callMs: number,
): Promise<{ provider: McpToolProvider; helper: () => Promise<number> }> {
  const dir = await mkdtemp(join(tmpdir(), 'toolseam-helper-'));
  folders.push(dir);
  const pidFile = join(dir, 'helper.pid');
  const redirect = helperOutput === 'released' ? '</dev/null >/dev/null 2>&1' : '2>/dev/null';
  const server = brokenStdio(name, 'ok');
  const script = `sleep 60 ${redirect} & echo $! > '${pidFile}'; exec "$0" "$1" "$2"`;
  const provider = createMcpProvider(
    { ...server, command: '/bin/sh', args: ['-c', script, server.command, ...server.args] },
    { timeouts: { callMs } },
  );
  open.push(provider);
  return { provider, helper: async () => Number(await readFile(pidFile, 'utf8')) };
}

describe.skipIf(process.platform === 'win32')('a stdio server that exits on its own', () => {
  it('takes the processes it started with it: nothing is left running once it is closed', async () => {
    const { provider, helper } = await withHelper('crashy', 'released', 20_000);
    await provider.listTools();
    const crashed = await provider.invoke('mcp/crashy/boom', {}, toolContext());
    expect(crashed.content).toContain('stopped while running mcp/crashy/boom');
    await provider.close();
    const pid = await helper();
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
  });

  it('is seen to be gone even when a process it started still holds its output open', async () => {
    // Without noticing the exit, the call would wait the whole call timeout and be called unanswered.
    const { provider } = await withHelper('held', 'inherited', 20_000);
    await provider.listTools();
    const crashed = await provider.invoke('mcp/held/boom', {}, toolContext());
    expect(crashed.isError).toBe(true);
    expect(crashed.content).toContain('stopped while running mcp/held/boom');
    expect(crashed.content).toContain('panic: index out of range in handler');
  });
});
