import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TSX_LOADER } from '../../support/tsx-loader.js';

const source = join(import.meta.dirname, '..', '..', '..', 'src', 'tools', 'builtin', 'sandbox-files.ts');
/** A process that makes the sandbox's files, prints their folder and then waits (or exits, with `exit`). */
const script = (exit: boolean) =>
  `const { sandboxFiles } = await import(${JSON.stringify(source)}); const f = sandboxFiles();` +
  `process.stdout.write(f.bashEnv.slice(0, f.bashEnv.lastIndexOf('/')) + '\\n');` +
  (exit ? '' : 'setInterval(() => {}, 1000);');
const args = (exit: boolean) => ['--import', TSX_LOADER, '--input-type=module', '-e', script(exit)];

describe("the sandbox's files", () => {
  it('go when their process exits, and a process a signal ended leaves none for long', async () => {
    const ended = execFileSync(process.execPath, args(true), { encoding: 'utf8' }).trim();
    expect(ended).toMatch(/toolseam-sandbox-\d+-/);
    expect(existsSync(ended)).toBe(false);

    const killed = spawn(process.execPath, args(false), { stdio: ['ignore', 'pipe', 'inherit'] });
    const folder = await new Promise<string>((done) => {
      killed.stdout.on('data', (chunk: Buffer) => done(chunk.toString('utf8').trim()));
    });
    expect(existsSync(join(folder, 'hidden-file'))).toBe(true);
    const gone = new Promise((done) => killed.once('exit', done));
    killed.kill('SIGKILL');
    await gone;
    expect(existsSync(folder)).toBe(true);
    // The next process to make its own removes what the killed one left.
    execFileSync(process.execPath, args(true), { encoding: 'utf8' });
    expect(existsSync(folder)).toBe(false);
  });
});
