import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { brokenStdio } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';
import { alive } from '../../support/process-alive.js';
import { TSX_LOADER } from '../../support/tsx-loader.js';

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

/** Host processes started (and their servers' groups, negative), ended after each test. */
const hosts: number[] = [];

/** A host process (`test/support/stdio-group-child.ts`) that started a server; resolves once it has. */
async function host(mode: 'plain' | 'handles' = 'plain') {
  const dir = await mkdtemp(join(tmpdir(), 'toolseam-host-'));
  folders.push(dir);
  const pidFile = join(dir, 'server.pid');
  const child = join(import.meta.dirname, '..', '..', 'support', 'stdio-group-child.ts');
  const proc = spawn(process.execPath, ['--import', TSX_LOADER, child, pidFile, mode], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  const said = (line: string) =>
    new Promise<void>((done) => {
      const check = () => output.includes(`${line}\n`) && done();
      proc.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        check();
      });
      check();
    });
  const ended = new Promise<NodeJS.Signals | number | null>((done) =>
    proc.once('exit', (code, signal) => done(signal ?? code)),
  );
  if (proc.pid !== undefined) hosts.push(proc.pid);
  await said('ready');
  const server = Number(await readFile(pidFile, 'utf8'));
  hosts.push(-server);
  return { proc, server, said, ended };
}

describe.skipIf(process.platform === 'win32')('a host ended by a signal', () => {
  // What a failed test leaves: its host, and its server's group.
  afterEach(() => {
    for (const pid of hosts.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already, as it should be.
      }
    }
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)(
    'takes its servers with it on %s, and still ends by that signal',
    async (signal) => {
      const { proc, server, ended } = await host();
      expect(alive(server)).toBe(true);
      proc.kill(signal);
      expect(await ended).toBe(signal);
      await expect.poll(() => alive(server), { timeout: 10_000 }).toBe(false);
    },
  );

  it('leaves a signal the host handles itself to the host, and stops the servers when it exits', async () => {
    const { proc, server, said, ended } = await host('handles');
    proc.kill('SIGTERM');
    await said('host-handled');
    expect(alive(server)).toBe(true);
    proc.stdin.end();
    expect(await ended).toBe(0);
    await expect.poll(() => alive(server), { timeout: 10_000 }).toBe(false);
  });
});
