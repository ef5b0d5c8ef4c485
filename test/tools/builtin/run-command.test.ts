import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BoundedOutput } from '../../../src/tools/builtin/bounded-output.js';
import { runCommand } from '../../../src/tools/builtin/run-command.js';
import { alive } from '../../support/process-alive.js';
import { TSX_LOADER } from '../../support/tsx-loader.js';

const folders: string[] = [];
/** Host processes started, and their commands' and servers' groups (negative), ended after each test. */
const started: number[] = [];
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already, as it should be.
    }
  }
  await Promise.all(folders.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A host (`test/support/run-command-child.ts`) running a bash command, and a stdio server when asked. */
async function host(withServer: boolean, env: NodeJS.ProcessEnv = process.env) {
  const dir = await mkdtemp(join(tmpdir(), 'toolseam-bash-host-'));
  folders.push(dir);
  const commandFile = join(dir, 'command.pid');
  const serverFile = join(dir, 'server.pid');
  const child = join(import.meta.dirname, '..', '..', 'support', 'run-command-child.ts');
  const args = ['--import', TSX_LOADER, child, commandFile, ...(withServer ? [serverFile] : [])];
  const proc = spawn(process.execPath, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] });
  if (proc.pid !== undefined) started.push(proc.pid);
  const ended = new Promise<NodeJS.Signals | number | null>((done) =>
    proc.once('exit', (code, signal) => done(signal ?? code)),
  );
  let output = '';
  await new Promise<void>((done) => {
    proc.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('ready\n')) done();
    });
  });
  const command = Number(await readFile(commandFile, 'utf8'));
  // A sandboxed command's pid is its own namespace's; the host knows it by another.
  if (env.TOOLSEAM_CHILD_SANDBOX === undefined) started.push(-command);
  const server = withServer ? Number(await readFile(serverFile, 'utf8')) : undefined;
  if (server !== undefined) started.push(-server);
  return { proc, command, server, ended };
}

describe.skipIf(process.platform === 'win32')('a bash command running when toolseam is signalled', () => {
  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'] as const)(
    'is ended with it on %s, and toolseam still ends by that signal',
    async (signal) => {
      const { proc, command, ended } = await host(false);
      expect(alive(command)).toBe(true);
      proc.kill(signal);
      expect(await ended).toBe(signal);
      await expect.poll(() => alive(command), { timeout: 10_000 }).toBe(false);
    },
  );

  it('is ended with the stdio servers by one hook, and the signal still ends toolseam', async () => {
    const { proc, command, server, ended } = await host(true);
    expect(server).toBeGreaterThan(0);
    proc.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    await expect.poll(() => alive(command), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => alive(server as number), { timeout: 10_000 }).toBe(false);
  });
});

/** Processes on this machine whose command line holds `token`. */
function processesWith(token: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(token)) found.push(pid);
    } catch {
      // Gone while listed.
    }
  }
  return found;
}

describe.skipIf(process.platform !== 'linux')('a sandboxed bash command when toolseam dies', () => {
  it('ends with it, even killed by SIGKILL (which runs no hook)', async () => {
    const seconds = '317.25';
    const { proc, ended } = await host(false, { ...process.env, TOOLSEAM_CHILD_SANDBOX: seconds });
    expect(processesWith(`sleep ${seconds}`)).not.toEqual([]);
    proc.kill('SIGKILL');
    expect(await ended).toBe('SIGKILL');
    await expect.poll(() => processesWith(`sleep ${seconds}`), { timeout: 10_000 }).toEqual([]);
  });
});

describe.skipIf(process.platform !== 'linux')('a sandbox bubblewrap cannot set up', () => {
  it('is a start error that quotes bubblewrap, never the output of a command that ran', async () => {
    const end = await runCommand({
      command: 'echo never-ran',
      cwd: tmpdir(),
      env: { PATH: process.env.PATH ?? '' },
      timeoutMs: 30_000,
      signal: new AbortController().signal,
      output: new BoundedOutput(new Map()),
      sandbox: { bwrap: '/usr/bin/bwrap', args: ['--ro-bind', '/no/such/source', '/x'] },
    });
    expect(end.startError).toMatch(
      /^the sandbox could not be set up \(Can't find source path \/no\/such\/source/,
    );
    expect(end.output.text).not.toContain('never-ran');
  });
});
