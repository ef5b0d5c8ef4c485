import { execFileSync } from 'node:child_process';

/** The loop earlier closing notes timed as `node -e '…'`: run the same way, its figures compare with theirs. */
const LOOP = 'let t=performance.now();let x=0;for(let i=0;i<3e8;i++)x+=i%7;console.log(performance.now()-t)';

/**
 * What one system call costs: `fstat` on an open file, 100,000 times, in microseconds per call. The
 * store's writes (a write-ahead log page is two `pwrite`s, a transaction's locks a few `fcntl`s) pay it.
 */
const SYSCALL = `const fs=require('node:fs');const fd=fs.openSync(process.execPath,'r');let t=performance.now();for(let i=0;i<1e5;i++)fs.fstatSync(fd);console.log((performance.now()-t)/1e5*1e3)`;

/**
 * What a read that misses every cache costs: 1,000,000 dependent reads along one cycle through 64 MB,
 * in nanoseconds per read. The cycle is a full-period linear congruential sequence (each entry holds
 * the next index), so the walk jumps about the whole array and no read can start before the one before
 * it ends. A turn touches far more memory than a bare SDK call does (the store's pages, the index, the
 * registry): a machine slow here slows toolseam's turn more than its integer loop says.
 */
const MEMORY = `const n=1<<24,a=new Int32Array(n);for(let i=0;i<n;i++)a[i]=(Math.imul(i,1664525)+1013904223)&(n-1);let j=0,t=performance.now();for(let i=0;i<1e6;i++)j=a[j];console.log((performance.now()-t)/1e6*1e6+j*0)`;

/**
 * How fast this machine is right now: the time of a fixed integer loop in a fresh process, the best of
 * three. Shared two-core machines vary from day to day by a third or more; a figure read beside this one
 * can be compared with one from another day.
 */
export function yardstickMs(): number {
  return bestOfThree(LOOP);
}

/** The best of three fresh processes running `script`, which prints one number. */
function bestOfThree(script: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 3; run += 1) {
    const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    best = Math.min(best, Number(out.trim()));
  }
  return best;
}

/** The system-call and memory readings of this machine now (see `SYSCALL` and `MEMORY`), best of three each. */
export function machineReadings(): { readonly syscallUs: number; readonly memoryNs: number } {
  return { syscallUs: bestOfThree(SYSCALL), memoryNs: bestOfThree(MEMORY) };
}

let taken: number | undefined;

/** The yardstick taken once per run of the benches (the first call measures it), for figures to be read against. */
export function runYardstickMs(): number {
  taken ??= yardstickMs();
  return taken;
}
