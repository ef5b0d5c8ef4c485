import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './stats.js';
import { bareSide } from './turn-bare.js';
import { ASKED, callPath, startLoopbackProcess } from './turn-loopback.js';
import { CALL_ARGUMENTS, targetOf, timedBlock } from './turn-tools.js';
import { toolseamSide } from './turn-toolseam.js';

// How much the bare SDK's turns at N tools, run in the same process, weigh on toolseam's turns beside
// them: `node dist/bench/turn-interference.js [n] [rounds]` (default 10000, 6). Each round builds a fresh
// toolseam over N tools and runs the turn bench's block order for its N >= 2,000 counts (the N=48
// reference, bare at N, toolseam, the order swapped each block), with bare's blocks run in one round and
// left out in the next, and prints toolseam's p50 less the reference's for each. A toolseam over 48 tools,
// built once, takes a block beside each of those (its asks as the reference's): what bare's blocks cost
// a toolseam turn whatever its tool count, apart from what N tools cost it. Bare at 10,000 tools leaves
// ~14 MB of garbage a turn, which this process collects.
const args = process.argv.slice(2);
const N = Number(args[0] ?? 10_000);
const ROUNDS = Number(args[1] ?? 6);
const BLOCK = N >= 10_000 ? 4 : 10;
const TURNS = N >= 10_000 ? 32 : 60;
const WARM = 100;

const dir = mkdtempSync(join(tmpdir(), 'toolseam-bench-interference-'));
const loopback = await startLoopbackProcess();
const url = `${loopback.url}${callPath(ASKED, CALL_ARGUMENTS)}`;

try {
  // The process warmed up as the turn bench warms it, at N=48.
  const reference = bareSide(url, 48);
  const control = await toolseamSide(url, 48, dir);
  for (let i = 0; i < 400; i += 1)
    for (const side of [reference, control]) await side.turn(targetOf(48).ask(i));
  for (let round = 0; round < ROUNDS; round += 1) {
    const withBare = round % 2 === 0;
    const bare = bareSide(url, N);
    const toolseam = await toolseamSide(url, N, join(dir, `round-${round}`));
    // Each side serves its first turns at N before it is timed, as in the turn bench.
    for (let i = 0; i < WARM; i += 1)
      for (const side of [toolseam, bare]) await side.turn(targetOf(N).ask(i));
    const timed = { ms: [] as number[], ran: 0 };
    const ref = { ms: [] as number[], ran: 0 };
    const at48 = { ms: [] as number[], ran: 0 };
    for (let b = 0; b < TURNS / BLOCK; b += 1) {
      const asked = (n: number) => (i: number) => targetOf(n).ask(WARM + b * BLOCK + i);
      if (b % 2 === 0) await timedBlock(reference, asked(48), BLOCK, undefined, ref);
      for (const side of b % 2 === 0 ? [bare, toolseam, control] : [control, toolseam, bare]) {
        if (side === toolseam) await timedBlock(toolseam, asked(N), BLOCK, undefined, timed);
        else if (side === control) await timedBlock(control, asked(48), BLOCK, undefined, at48);
        else if (withBare) await timedBlock(bare, asked(N), BLOCK, undefined, { ms: [], ran: 0 });
      }
      if (b % 2 === 1) await timedBlock(reference, asked(48), BLOCK, undefined, ref);
    }
    await toolseam.close();
    const [t, r, c] = [median(timed.ms), median(ref.ms), median(at48.ms)];
    console.log(
      `N=${N}, ${withBare ? 'bare at N in the process' : 'no bare at N          '}: toolseam p50 ${t.toFixed(2)} ms, ` +
        `reference (bare at N=48) ${r.toFixed(2)} ms, toolseam − reference ${(t - r).toFixed(2)} ms; ` +
        `toolseam at 48 tools − reference ${(c - r).toFixed(2)} ms`,
    );
  }
  await control.close();
} finally {
  await loopback.close();
  rmSync(dir, { recursive: true, force: true });
}
