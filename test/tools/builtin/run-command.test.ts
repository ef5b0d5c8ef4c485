import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
async function host(withServer: boolean) {
  const dir = await mkdtemp(join(tmpdir(), 'toolseam-bash-host-'));
  folders.push(dir);
  const commandFile = join(dir, 'command.pid');
  const serverFile = join(dir, 'server.pid');
  const child = join(import.meta.dirname, '..', '..', 'support', 'run-command-child.ts');
  const args = ['--import', TSX_LOADER, child, commandFile, ...(withServer ? [serverFile] : [])];
  const proc = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
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
  started.push(-command);
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
