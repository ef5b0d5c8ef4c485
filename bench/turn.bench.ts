import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchFigure } from './run.js';
import { median, percentile } from './stats.js';
import { bareSide } from './turn-bare.js';
import { COLD_ROUNDS, coldChat, coldImport } from './turn-cold.js';
import { ASKED, callPath, startLoopbackProcess } from './turn-loopback.js';
import { CALL_ARGUMENTS, type TurnSide, targetOf, timedBlock } from './turn-tools.js';
import { toolseamSide } from './turn-toolseam.js';

const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

/**
 * Tool counts, turns per side (taken in blocks, the sides alternating) and warm-up turns. The first
 * count warms the process up: V8 keeps compiling both sides' code for a few hundred turns (on the
 * 2-core machine of 2026-12-06, blocks of 100: bare's p50 fell from 2.8 to ~1.5 ms over 400 of them,
 * toolseam's from 6.2 to ~3), so 5 turns would time N=48 while the compiler is still at work and every
 * later count after it. Each later count builds a new runtime over more tools, which is timed once it
 * has served 100 turns, as a host's runtime has: its first turns at that count run code the smaller
 * counts took other ways through (deferral in the ranking, large shelves in the catalog) and fill
 * what it keeps per tool as each tool is first offered (on 2026-12-07 toolseam's p50 per block of 20
 * turns at 2,000 tools fell from 4.3-5.8 to ~3 ms over the first 100-120). Each count's warm-up is
 * timed too and reported apart (its first `EARLY` turns), so those turns stay in view. The counts
 * with `reference` also time the bare SDK at N=48 in their own blocks, which their p50 target is
 * measured against: the same machine at the same moment (on 2026-12-07 bare's N=48 p50 moved between
 * 1.5 and 2.4 ms within one run's counts). N=10,000 takes 48 turns a side, not 16, so its p50 does not
 * rest on 16 turns beside bare's, each of which leaves ~14 MB for the collector. Three runs of each, taken
 * in turn on 2026-12-07 (yardstick 412 ms): 16 turns gave 3.9-4.8 ms and 48 turns 4.0-4.1 while the
 * timed turns repeated the warm-up's asks; with asks new to the runtime, 4.0-4.5 and 3.8-4.3.
 */
const NEW_SESSION = [
  { n: 48, turns: 100, block: 10, warm: 400 },
  { n: 500, turns: 40, block: 10, warm: 100 },
  { n: 2000, turns: 60, block: 10, warm: 100, reference: true },
  { n: 10_000, turns: 48, block: 4, warm: 100, reference: true },
] as const;
/** One long conversation: its first and last turns are compared (`LONG_WINDOW` of each). */
const LONG = { n: 48, turns: 300, block: 10, warm: 30 } as const;
const RSS = { n: 2000, turns: 220 } as const;
/** The warm-up turns reported as a fresh process's (N=48) or a new runtime's first turns. */
const EARLY = 100;

type SideName = 'bare' | 'toolseam';
const SIDES: readonly SideName[] = ['bare', 'toolseam'];

/** What one side's measured turns gave. */
interface Measured {
  /** Wall time of each turn, in order. */
  readonly ms: number[];
  /** CPU time of the process (every thread) over the side's blocks, per turn. */
  cpuPerTurn: number;
  /** Turns in which the asked-for tool ran. */
  ran: number;
}

interface Comparison {
  readonly bare: Measured;
  readonly toolseam: Measured;
  /**
   * The bare SDK at N=48 in the same blocks (plans with `reference`): what the N ≥ 2,000 targets are
   * measured against, taken beside them rather than in the N=48 plan some seconds before, so a machine
   * that speeds up or slows down meanwhile does not move the limit.
   */
  readonly bare48?: Measured;
  /** Wall time of each side's first warm-up turns (at most `EARLY`), in order. */
  readonly early: Record<SideName, number[]>;
  /** toolseam: `createRuntime` with the tools, and its first turn (when it indexes them). */
  readonly buildMs: number;
  readonly firstTurnMs: number;
}

/**
 * Both sides over `plan.n` tools against the loopback, in blocks of `plan.block` turns, the order of the
 * sides swapped each block, so the machine's load falls on both alike.
 */
async function compare(
  loopback: string,
  dir: string,
  plan: { n: number; turns: number; block: number; warm: number; reference?: boolean },
  conversation: 'new' | 'long',
): Promise<Comparison> {
  const target = targetOf(plan.n);
  const baseURL = `${loopback}${callPath(ASKED, CALL_ARGUMENTS)}`;
  const target48 = targetOf(48);
  const reference = plan.reference ? bareSide(baseURL, 48) : undefined;
  const bare48: Measured = { ms: [], cpuPerTurn: 0, ran: 0 };
  const t0 = performance.now();
  const toolseam = await toolseamSide(baseURL, plan.n, dir);
  const buildMs = performance.now() - t0;
  const sides: Record<SideName, TurnSide> = { bare: bareSide(baseURL, plan.n), toolseam };
  const t1 = performance.now();
  await toolseam.turn(target.ask(0));
  const firstTurnMs = performance.now() - t1;
  // The long conversation's first turns are what its last turns are held to, so they are timed with the
  // code warm: the warm-up turns are a long conversation of their own, taking the path of a session
  // looked up by id, which new sessions do not.
  const measured = conversation === 'long' ? 'long' : undefined;
  const warming = conversation === 'long' ? 'warm-up' : undefined;
  const early: Record<SideName, number[]> = { bare: [], toolseam: [] };
  for (let i = 0; i < plan.warm; i += 1) {
    for (const s of SIDES) {
      const t = performance.now();
      await sides[s].turn(target.ask(i), warming);
      if (i < EARLY) early[s].push(performance.now() - t);
    }
  }
  const out: Record<SideName, Measured> = {
    bare: { ms: [], cpuPerTurn: 0, ran: 0 },
    toolseam: { ms: [], cpuPerTurn: 0, ran: 0 },
  };
  for (let b = 0; b < plan.turns / plan.block; b += 1) {
    // Asks after the warm-up's: a timed turn asks for what no turn before it asked in those words.
    const asked = (t: ReturnType<typeof targetOf>) => (i: number) => t.ask(plan.warm + b * plan.block + i);
    // The reference's block first and last in turn, as the two sides swap.
    if (reference && b % 2 === 0) await timedBlock(reference, asked(target48), plan.block, undefined, bare48);
    for (const s of b % 2 === 0 ? SIDES : [...SIDES].reverse()) {
      const cpu0 = process.cpuUsage();
      await timedBlock(sides[s], asked(target), plan.block, measured, out[s]);
      const cpu = process.cpuUsage(cpu0);
      out[s].cpuPerTurn += (cpu.user + cpu.system) / 1000 / plan.turns;
    }
    if (reference && b % 2 === 1) await timedBlock(reference, asked(target48), plan.block, undefined, bare48);
  }
  await toolseam.close();
  if (out.bare.ran !== plan.turns)
    throw new Error(`The loopback called the tool in ${out.bare.ran} bare turns.`);
  return { ...out, ...(reference ? { bare48 } : {}), early, buildMs, firstTurnMs };
}

const ms = (name: string, value: number, extra: Partial<BenchFigure> = {}): BenchFigure => ({
  name,
  value,
  unit: 'ms',
  ...extra,
});
const times = (name: string, value: number): BenchFigure => ({ name, value, unit: '×' });
const atMost = (value: number, limit: number, words: string) => ({
  target: `≤ ${words} (${limit.toFixed(1)} ms)`,
  ok: value <= limit,
});

function newSessionFigures(n: number, c: Comparison): BenchFigure[] {
  const p = (s: SideName, q: number) => percentile(c[s].ms, q);
  const [b50, t50, b95, t95] = [p('bare', 0.5), p('toolseam', 0.5), p('bare', 0.95), p('toolseam', 0.95)];
  const count = c.bare.ms.length;
  const ref50 = c.bare48 ? percentile(c.bare48.ms, 0.5) : undefined;
  const p50Target =
    ref50 === undefined
      ? atMost(t50, b50 + 2, 'bare p50 + 2 ms')
      : atMost(t50, ref50 + 3, 'bare p50 at N=48, same blocks, + 3 ms');
  const big = n >= 2000;
  const warming = c.early.bare.length < EARLY ? [] : earlyFigures(n, c);
  return [
    ...warming,
    ms(`N=${n.toLocaleString('en-US')}, a new session each turn (${count} turns each): bare p50`, b50),
    ...(ref50 === undefined ? [] : [ms('  bare p50 at N=48 in the same blocks', ref50)]),
    ms('  toolseam p50', t50, n === 48 || big ? p50Target : {}),
    times('  toolseam ÷ bare, p50', t50 / b50),
    ms('  bare p95', b95),
    ms('  toolseam p95', t95, big ? atMost(t95, b95, 'bare p95') : {}),
    times('  toolseam ÷ bare, p95', t95 / b95),
    ms('  CPU per turn: bare', c.bare.cpuPerTurn),
    ms('  CPU per turn: toolseam', c.toolseam.cpuPerTurn),
    times('  toolseam ÷ bare, CPU', c.toolseam.cpuPerTurn / c.bare.cpuPerTurn),
    {
      name: `  toolseam turns in which the asked-for tool ran (of ${count})`,
      value: c.toolseam.ran,
      unit: '',
    },
    ms('  toolseam: createRuntime with the tools', c.buildMs),
    ms('  toolseam: its first turn', c.firstTurnMs),
  ];
}

/**
 * The first turns of the warm-up, untargeted (see NEW_SESSION): at N=48 the process's, while V8 still
 * compiles both sides' code; at larger counts a runtime's just built over the tools.
 */
function earlyFigures(n: number, c: Comparison): BenchFigure[] {
  const [bare, toolseam] = [median(c.early.bare), median(c.early.toolseam)];
  const what = n === 48 ? "the process's" : "a new runtime's";
  return [
    ms(
      `N=${n.toLocaleString('en-US')}, ${what} first ${EARLY} turns each, not the measured ones: bare p50`,
      bare,
    ),
    ms('  toolseam p50', toolseam),
    ms('  toolseam − bare, p50', toolseam - bare),
  ];
}

/**
 * Turns at each end of the long conversation whose p50 is compared: three blocks of each side. One block
 * (ten turns) was at the mercy of whatever the machine did during it: on 2026-12-07 toolseam's p50 of
 * turns 1-10 ranged 3.0-6.4 ms over eight runs while its turns 291-300 stayed at 3.5-4.7.
 */
const LONG_WINDOW = 30;

function longFigures(c: Comparison): BenchFigure[] {
  const count = c.bare.ms.length;
  const first = (s: SideName, n = LONG_WINDOW) => median(c[s].ms.slice(0, n));
  const last = (s: SideName, n = LONG_WINDOW) => median(c[s].ms.slice(-n));
  const early = `turns 1-${LONG_WINDOW}`;
  const late = `turns ${count - LONG_WINDOW + 1}-${count}`;
  return [
    ms(`N=${LONG.n}, one session of ${count} turns: bare, p50 of ${early}`, first('bare')),
    ms(`  bare, p50 of ${late}`, last('bare')),
    ms(`  toolseam, p50 of ${early}`, first('toolseam')),
    ms(
      `  toolseam, p50 of ${late}`,
      last('toolseam'),
      atMost(last('toolseam'), first('toolseam') + 1, `its ${early} + 1 ms`),
    ),
    times(`  toolseam ÷ bare, p50 of ${late}`, last('toolseam') / last('bare')),
    // The request grows with the history on both sides (the same messages go over the wire): what
    // toolseam adds to that growth is its own.
    ms(
      '  toolseam: its growth over the session less bare’s',
      last('toolseam') - first('toolseam') - (last('bare') - first('bare')),
    ),
    ms('  toolseam, p50 of turns 1-10 (one block)', first('toolseam', 10)),
    ms(`  toolseam, p50 of turns ${count - 9}-${count} (one block)`, last('toolseam', 10)),
    ms('  CPU per turn over the session: bare', c.bare.cpuPerTurn),
    ms('  CPU per turn over the session: toolseam', c.toolseam.cpuPerTurn),
    {
      name: `  toolseam turns in which the asked-for tool ran (of ${count})`,
      value: c.toolseam.ran,
      unit: '',
    },
  ];
}

/** Both sides at once, each in a process of its own with only its own modules loaded. */
async function rssFigures(loopback: string): Promise<BenchFigure[]> {
  const child = async (mode: SideName) => {
    const args = ['--mode', mode, '--n', String(RSS.n), '--turns', String(RSS.turns), '--url', loopback];
    const { stdout } = await run(process.execPath, [join(here, 'turn-rss.js'), ...args], {
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    return JSON.parse(stdout) as { rssMB: number; heapMB: number };
  };
  const [bare, toolseam] = await Promise.all([child('bare'), child('toolseam')]);
  const name = `RSS after ${RSS.turns} turns, ${RSS.n.toLocaleString('en-US')} tools, own process`;
  return [
    { name: `${name}: bare`, value: bare.rssMB, unit: 'MB' },
    {
      name: `${name}: toolseam`,
      value: toolseam.rssMB,
      unit: 'MB',
      target: `≤ bare + 50 MB (${(bare.rssMB + 50).toFixed(0)} MB)`,
      ok: toolseam.rssMB <= bare.rssMB + 50,
    },
    { name: '  JS heap in use then: bare', value: bare.heapMB, unit: 'MB' },
    { name: '  JS heap in use then: toolseam', value: toolseam.heapMB, unit: 'MB' },
  ];
}

async function coldFigures(loopback: string, dir: string): Promise<BenchFigure[]> {
  const chat = await coldChat(loopback, dir);
  const load = await coldImport();
  return [
    ms(`\`toolseam chat -m hi\` start to exit (a tool call), median of ${COLD_ROUNDS}`, chat.toolseam),
    ms('  bare openai script doing the same two requests', chat.bare),
    {
      ...times('  toolseam ÷ bare', chat.toolseam / chat.bare),
      target: '≤ 1.5×',
      ok: chat.toolseam <= 1.5 * chat.bare,
    },
    ms(`import('toolseam') in a fresh process, median of ${COLD_ROUNDS}`, load.toolseam, {
      target: '≤ 250 ms',
      ok: load.toolseam <= 250,
    }),
    ms("  import('openai') alone", load.openai),
    times('  toolseam ÷ openai', load.toolseam / load.openai),
  ];
}

/** What a person gets per turn with toolseam beside the bare `openai` SDK, on a loopback model. */
export async function bench(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [
    { name: 'load average (1 min) as the turn bench starts', value: loadavg()[0] ?? 0, unit: '' },
  ];
  const loopback = await startLoopbackProcess();
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-bench-turn-'));
  try {
    for (const plan of NEW_SESSION) {
      const c = await compare(loopback.url, dir, plan, 'new');
      figures.push(...newSessionFigures(plan.n, c));
    }
    figures.push(...longFigures(await compare(loopback.url, dir, LONG, 'long')));
    figures.push(...(await rssFigures(loopback.url)));
    figures.push(...(await coldFigures(loopback.url, dir)));
  } finally {
    await loopback.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}
