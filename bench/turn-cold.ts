import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { launchFlags } from './launch-flags.js';
import { sourceRoot } from './source-root.js';
import { median } from './stats.js';
import { callPath } from './turn-loopback.js';

const run = promisify(execFile);
/** Runs of each command a cold figure is the median of. */
export const COLD_ROUNDS = 5;

/** The repository the benches run from (where `bin/`, `bench/bare-chat.mjs` and `dist/` are). */
function root(): string {
  const found = sourceRoot(join('bench', 'bare-chat.mjs'));
  if (found === undefined)
    throw new Error('No bench/bare-chat.mjs above the benches: run them from the repository.');
  return found;
}

/** The environment of a measured process: no NODE_OPTIONS or model settings from the shell running the bench. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'TOOLSEAM_DB']) delete env[key];
  return env;
}

async function wall(file: string, args: readonly string[], cwd: string): Promise<number> {
  const t0 = performance.now();
  await run(file, args, { cwd, env: cleanEnv(), maxBuffer: 1 << 20 });
  return performance.now() - t0;
}

/** Medians of `COLD_ROUNDS` runs of each command, taken in turns (ABBA), after one untimed run of each. */
async function alternate(a: () => Promise<number>, b: () => Promise<number>): Promise<[number, number]> {
  await a();
  await b();
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < COLD_ROUNDS; i += 1) {
    if (i % 2 === 1) bs.push(await b());
    as.push(await a());
    if (i % 2 === 0) bs.push(await b());
  }
  return [median(as), median(bs)];
}

/** Cold start, process to exit: `toolseam chat -m` as its launcher starts it, and the bare script, both on the loopback. */
export async function coldChat(loopback: string, dir: string): Promise<{ toolseam: number; bare: number }> {
  const baseURL = `${loopback}${callPath('list_dir', { path: '.' })}`;
  const bin = join(root(), 'bin', 'toolseam.js');
  const chat = [bin, 'chat', '-m', 'hi', '--base-url', baseURL, '--model', 'bench'];
  const flags = [...chat, '--db', join(dir, 'chat.db'), '--approve', 'auto'];
  const [toolseam, bare] = await alternate(
    () => wall(process.execPath, [...launchFlags(), ...flags], dir),
    () => wall(process.execPath, [join(root(), 'bench', 'bare-chat.mjs'), baseURL, 'hi'], dir),
  );
  return { toolseam, bare };
}

async function importTime(specifier: string): Promise<number> {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root(),
    env: cleanEnv(),
  });
  return Number(stdout);
}

/** `await import()` in a fresh process (Node's default flags, as a host has them): toolseam's entry, and `openai` alone. */
export async function coldImport(): Promise<{ toolseam: number; openai: number }> {
  // What `import('toolseam')` loads: the package's entry, the bundle the build makes of dist/src.
  const entry = pathToFileURL(join(root(), 'dist', 'bundle', 'index.js')).href;
  const [toolseam, openai] = await alternate(
    () => importTime(entry),
    () => importTime('openai'),
  );
  return { toolseam, openai };
}
