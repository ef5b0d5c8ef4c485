import { execFileSync } from 'node:child_process';

/** The loop earlier closing notes timed as `node -e '…'`: run the same way, its figures compare with theirs. */
const LOOP = 'let t=performance.now();let x=0;for(let i=0;i<3e8;i++)x+=i%7;console.log(performance.now()-t)';

/**
 * How fast this machine is right now: the time of a fixed integer loop in a fresh process, the best of
 * three. Shared two-core machines vary from day to day by a third or more; a figure read beside this one
 * can be compared with one from another day.
 */
export function yardstickMs(): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run += 1) {
    const out = execFileSync(process.execPath, ['-e', LOOP], { encoding: 'utf8' });
    best = Math.min(best, Number(out.trim()));
  }
  return best;
}

let taken: number | undefined;

/** The yardstick taken once per run of the benches (the first call measures it), for figures to be read against. */
export function runYardstickMs(): number {
  taken ??= yardstickMs();
  return taken;
}
