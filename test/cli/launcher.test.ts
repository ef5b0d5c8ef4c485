import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const launcher = join(root, 'bin', 'toolseam.js');
const built = existsSync(join(root, 'dist', 'bundle', 'cli', 'bin.js'));

/** The command line the kernel shows for `pid` (NUL-separated arguments), or undefined once it is gone. */
function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '');
  } catch {
    return undefined;
  }
}

describe('the published launcher, bin/toolseam.js, run as npm links it (by its first line)', () => {
  it('says which flags it starts Node with on its first line', () => {
    const first = readFileSync(launcher, 'utf8').split('\n', 1)[0];
    expect(first).toBe('#!/usr/bin/env -S node --v8-pool-size=1');
  });

  // The launcher loads the bundled CLI, which `npm ci` builds (the package's `prepare` script).
  it.skipIf(process.platform !== 'linux' || !built)(
    'starts Node with one V8 worker thread, and runs the CLI',
    async () => {
      const child = spawn(launcher, ['conform', '-'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const pid = child.pid as number;
      // env replaces itself with node; the CLI then waits on stdin, so its command line can be read.
      let args = commandLine(pid);
      for (let i = 0; i < 1000 && args?.[0] !== 'node'; i += 1) {
        await new Promise((r) => setTimeout(r, 10));
        args = commandLine(pid);
      }
      child.stdin.end(
        JSON.stringify([{ name: 'lookup_word', description: 'Looks a word up.', parameters: {} }]),
      );
      expect(await exited).toBe(0);
      expect(args).toEqual(['node', '--v8-pool-size=1', launcher, 'conform', '-']);
      expect(stdout).toContain('lookup_word');
    },
  );
});
