import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { coldScript } from './cold-script.js';
import { median } from './stats.js';

/**
 * Counts the instructions of one cold pass over the corpus, in a fresh process under callgrind, with
 * counting switched on only around the pass: the main thread's, and those of every other thread (V8's
 * optimizing compiler, the collector's helpers). Unlike a timing, the count hardly moves with the load
 * of a shared machine, so two versions of the seam can be compared on a noisy day.
 *
 *   npm run build && node dist/bench/cold-instructions.js [--runs N] [V8 flags, e.g. --no-opt]
 *
 * Needs valgrind (Debian: `apt-get install valgrind`); each run takes about half a minute.
 */

const run = promisify(execFile);

/** Instructions one pass took, in millions. */
interface PassCount {
  readonly main: number;
  readonly others: number;
}

async function countPass(v8Flags: readonly string[]): Promise<PassCount> {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-cold-'));
  try {
    const child = spawn(
      'valgrind',
      [
        '--tool=callgrind',
        '--separate-threads=yes',
        '--instr-atstart=no',
        `--callgrind-out-file=${join(dir, 'out.%p')}`,
        process.execPath,
        '--expose-gc',
        ...v8Flags,
        '--input-type=module',
        '-e',
        coldScript('all', dir),
      ],
      { stdio: 'ignore' },
    );
    const ended = new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => resolve(code ?? 1));
    });
    const pid = String(child.pid);
    await Promise.race([arrived(join(dir, 'ready')), ended]);
    await run('callgrind_control', ['-i', 'on', pid]);
    writeFileSync(join(dir, 'go'), '');
    await Promise.race([arrived(join(dir, 'done')), ended]);
    await run('callgrind_control', ['-i', 'off', pid]);
    writeFileSync(join(dir, 'stop'), '');
    const code = await ended;
    if (code !== 0) throw new Error(`the cold script under callgrind exited with code ${code}`);
    return countsIn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Resolves once `file` exists (the script's side of the handshake). */
async function arrived(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((r) => setTimeout(r, 20));
}

/** The totals of callgrind's per-thread files: thread 1 is the main thread. */
function countsIn(dir: string): PassCount {
  let main = 0;
  let others = 0;
  for (const file of readdirSync(dir).filter((f) => /^out\.\d+-\d+$/.test(f))) {
    const totals = /^totals: (\d+)$/m.exec(readFileSync(join(dir, file), 'utf8'));
    const count = totals ? Number(totals[1]) / 1e6 : 0;
    if (file.endsWith('-01')) main += count;
    else others += count;
  }
  return { main, others };
}

function readArgs(argv: readonly string[]): { runs: number; v8Flags: string[] } {
  const at = argv.indexOf('--runs');
  const runs = at >= 0 ? Number(argv[at + 1]) : 3;
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error('--runs takes a whole number of runs, 1 or more (for example --runs 3)');
  }
  return { runs, v8Flags: argv.filter((_, i) => i !== at && i !== at + 1) };
}

async function main(): Promise<void> {
  const { runs, v8Flags } = readArgs(process.argv.slice(2));
  const counts: PassCount[] = [];
  for (let i = 0; i < runs; i += 1) {
    const count = await countPass(v8Flags);
    counts.push(count);
    process.stdout.write(
      `run ${i + 1}: main thread ${count.main.toFixed(0)} M instructions, other threads ${count.others.toFixed(0)} M\n`,
    );
  }
  const mainMedian = median(counts.map((c) => c.main)).toFixed(0);
  const othersMedian = median(counts.map((c) => c.others)).toFixed(0);
  process.stdout.write(`median: main thread ${mainMedian} M, other threads ${othersMedian} M\n`);
}

try {
  await main();
} catch (error) {
  const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
  process.stderr.write(
    missing
      ? 'cold-instructions needs valgrind and callgrind_control on the PATH (Debian: apt-get install valgrind)\n'
      : `cold-instructions: ${(error as Error).message}\n`,
  );
  process.exitCode = 2;
}
