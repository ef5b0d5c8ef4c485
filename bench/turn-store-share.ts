import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { median } from './stats.js';
import { ASKED, callPath, startLoopbackProcess } from './turn-loopback.js';
import { CALL_ARGUMENTS, targetOf, timedBlock } from './turn-tools.js';
import { runtimeSide, toolseamRuntime } from './turn-toolseam.js';

// How much of toolseam's turn is its session store's: `node dist/bench/turn-store-share.js [n]`
// (default 48). Two runtimes over the same n tools, one keeping its sessions in a SQLite file (as
// `createRuntime` does by default) and one in memory (no log to write, no file locks), take the turn
// bench's turn (a new session each turn) in alternating blocks in this process, and their p50s are
// printed. Then the file runtime's turns are taken again with every SQLite statement timed: the time
// per turn of each kind of statement and how often a turn runs it (COMMIT among them; a statement run
// outside a transaction commits by itself). The timing wraps better-sqlite3's statement methods in this
// process only.

const N = Number(process.argv[2] ?? 48);
const WARM = 200;
const BLOCKS = 40;
const BLOCK = 10;
const TIMED_TURNS = 300;

/** Per kind of statement (its SQL's head): total µs and calls, while `on`. */
const spent = new Map<string, { us: number; calls: number }>();
let on = false;

/** Times every `run`, `get` and `all` of better-sqlite3 statements while `on` is set. */
function timeStatements(): void {
  const driver = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  const probe = new driver(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  for (const method of ['run', 'get', 'all'] as const) {
    const original = proto[method] as (this: Database.Statement, ...args: unknown[]) => unknown;
    proto[method] = function (this: Database.Statement, ...args: unknown[]) {
      if (!on) return original.apply(this, args);
      const t = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        // The clock is read before the statement's name is made, so only the statement is timed.
        const us = Number(process.hrtime.bigint() - t) / 1000;
        const key = `${method} ${this.source.replace(/\s+/g, ' ').slice(0, 72)}`;
        const entry = spent.get(key) ?? { us: 0, calls: 0 };
        entry.us += us;
        entry.calls += 1;
        spent.set(key, entry);
      }
    };
  }
}

const dir = mkdtempSync(join(tmpdir(), 'toolseam-bench-store-share-'));
const loopback = await startLoopbackProcess();
const baseURL = `${loopback.url}${callPath(ASKED, CALL_ARGUMENTS)}`;
const open = async (store: string) => runtimeSide(await toolseamRuntime(baseURL, N, store));

try {
  timeStatements();
  const sides = { file: await open(join(dir, 'store.db')), memory: await open(':memory:') };
  const target = targetOf(N);
  let ask = 0;
  const next = () => target.ask(ask++);
  for (let i = 0; i < WARM; i += 1) for (const side of Object.values(sides)) await side.turn(next());
  const timed = { file: { ms: [] as number[], ran: 0 }, memory: { ms: [] as number[], ran: 0 } };
  for (let b = 0; b < BLOCKS; b += 1) {
    const order = b % 2 === 0 ? (['file', 'memory'] as const) : (['memory', 'file'] as const);
    for (const side of order) await timedBlock(sides[side], next, BLOCK, undefined, timed[side]);
  }
  const [file, memory] = [median(timed.file.ms), median(timed.memory.ms)];
  console.log(`N=${N}, a new session each turn, ${BLOCKS * BLOCK} turns each, in blocks of ${BLOCK}:`);
  console.log(`  store in a SQLite file: p50 ${file.toFixed(2)} ms`);
  console.log(`  store in memory:        p50 ${memory.toFixed(2)} ms`);
  console.log(`  the file's share:           ${(file - memory).toFixed(2)} ms`);
  on = true;
  for (let i = 0; i < TIMED_TURNS; i += 1) await sides.file.turn(next());
  on = false;
  const rows = [...spent].sort((a, b) => b[1].us - a[1].us);
  const total = rows.reduce((sum, [, e]) => sum + e.us, 0);
  console.log(
    `SQLite statements of the file's turns (${TIMED_TURNS} more): ${(total / TIMED_TURNS).toFixed(0)} µs a turn`,
  );
  for (const [sql, e] of rows.slice(0, 12)) {
    const perTurn = (e.us / TIMED_TURNS).toFixed(1).padStart(7);
    const perCall = (e.us / e.calls).toFixed(1).padStart(6);
    console.log(
      `  ${perTurn} µs a turn, ${perCall} µs a call, ${(e.calls / TIMED_TURNS).toFixed(2)} a turn: ${sql}`,
    );
  }
  await Promise.all(Object.values(sides).map((side) => side.close()));
} finally {
  await loopback.close();
  rmSync(dir, { recursive: true, force: true });
}
