import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { toolDefinitionsFrom } from '../src/cli/conform-command.js';
import type { ToolDefinition } from '../src/core/tool.js';
import { createToolSeam, nameCensus, offerTools } from '../src/seam/index.js';
import { coldScript, corpusDir, LARGEST_SERVER, type ServerFilter } from './cold-script.js';
import { launchFlags } from './launch-flags.js';
import type { BenchFigure } from './run.js';
import { median } from './stats.js';
import { runYardstickMs } from './yardstick.js';

const run = promisify(execFile);

interface Server {
  readonly stem: string;
  readonly definitions: ToolDefinition[];
}

/** Every corpus server's tools as the runtime names them (mcp/<server>/<tool>). */
function loadCorpus(): Server[] {
  return readdirSync(corpusDir)
    .filter((f) => f.endsWith('.json.gz') && !f.startsWith('reference-verdicts'))
    .sort()
    .map((f) => {
      const stem = f.replace(/\.json\.gz$/, '');
      const doc = JSON.parse(gunzipSync(readFileSync(join(corpusDir, f))).toString('utf8'));
      const origin = { server: stem, provider: `mcp/${stem}`, app: 'mcp' };
      return { stem, definitions: toolDefinitionsFrom(doc, origin, f) };
    });
}

function conformAll(servers: readonly Server[]): number {
  let offered = 0;
  for (const s of servers)
    offered += offerTools(s.definitions, { provider: `mcp/${s.stem}`, app: 'mcp' }).offered.length;
  return offered;
}

interface ColdRun {
  /** Tools offered (every tool of the servers conformed: none is left out). */
  readonly offered: number;
  readonly conform: number;
  readonly load: number;
  /** Main-thread CPU time of the pass (NaN where the platform does not say). */
  readonly main: number;
  /** CPU time of every thread of the process during the pass (the optimizing compiler's included). */
  readonly cpu: number;
  /** The Node flags the process ran with, as it saw them. */
  readonly flags: readonly string[];
}

/** The median of the runs, with the fastest and slowest pass (the spread shows the machine's share in it). */
interface ColdFigures extends ColdRun {
  readonly fastest: number;
  readonly slowest: number;
}

/** One fresh process started with `flags`, conforming `keep`'s servers once. */
async function coldOnce(keep: ServerFilter, flags: readonly string[]): Promise<ColdRun> {
  const { stdout } = await run(
    process.execPath,
    [...flags, '--expose-gc', '--input-type=module', '-e', coldScript(keep)],
    {
      maxBuffer: 1 << 20,
      // NODE_OPTIONS from the shell running the bench would change what is measured.
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  const ran = JSON.parse(stdout) as ColdRun;
  if (flags.some((f) => !ran.flags.includes(f)))
    throw new Error(`The cold process ran with ${ran.flags.join(' ')}, not with ${flags.join(' ')}.`);
  return ran;
}

/**
 * Seven fresh processes for each set of flags, taken in turns (one of each per round), so a machine
 * that drifts during the bench weighs on every set alike.
 */
async function cold(keep: ServerFilter, flagSets: readonly (readonly string[])[]): Promise<ColdFigures[]> {
  const runs: ColdRun[][] = flagSets.map(() => []);
  for (let i = 0; i < 7; i += 1) {
    for (const [at, flags] of flagSets.entries()) runs[at]?.push(await coldOnce(keep, flags));
  }
  return runs.map((set, at) => {
    const of = (pick: (r: ColdRun) => number) => median(set.map(pick));
    const passes = set.map((r) => r.conform);
    return {
      offered: set[0]?.offered ?? 0,
      flags: flagSets[at] ?? [],
      fastest: Math.min(...passes),
      slowest: Math.max(...passes),
      conform: of((r) => r.conform),
      load: of((r) => r.load),
      main: of((r) => r.main),
      cpu: of((r) => r.cpu),
    };
  });
}

function warm(servers: readonly Server[], tools: number): number {
  for (let i = 0; i < 30; i += 1) conformAll(servers);
  const samples: number[] = [];
  for (let i = 0; i < 30; i += 1) {
    const t0 = performance.now();
    conformAll(servers);
    samples.push(performance.now() - t0);
  }
  return (median(samples) * 1000) / tools;
}

/** 2,000 definitions: the corpus plus renamed copies (new objects sharing their schemas). */
function twoThousand(servers: readonly Server[]): ToolDefinition[] {
  const all = servers.flatMap((s) => s.definitions);
  const out = [...all];
  for (let i = 0; out.length < 2000; i += 1) {
    const d = all[i % all.length] as ToolDefinition;
    out.push({ ...d, name: `${d.name}_copy${i}` });
  }
  return out;
}

function perTurn(definitions: readonly ToolDefinition[]): { unchanged: number; oneChanged: number } {
  const seam = createToolSeam();
  seam.prepare(definitions);
  const unchanged: number[] = [];
  for (let i = 0; i < 300; i += 1) {
    const t0 = performance.now();
    seam.prepare(definitions);
    unchanged.push(performance.now() - t0);
  }
  const changed: number[] = [];
  for (let i = 0; i < 50; i += 1) {
    const next = [...definitions];
    next[i] = { ...(next[i] as ToolDefinition), description: `changed ${i}` };
    const t0 = performance.now();
    seam.prepare(next);
    changed.push(performance.now() - t0);
    seam.prepare(definitions);
  }
  return { unchanged: median(unchanged), oneChanged: median(changed) };
}

/** The seam's figures: corpus cold and warm, and the per-turn cached path. */
export async function bench(): Promise<BenchFigure[]> {
  // The fresh processes run first, while this one is idle: loading the corpus here would leave
  // its collector's threads busy on the same two cores while they are timed.
  const launch = launchFlags();
  const [coldRun, coldDefault] = (await cold('all', [launch, []])) as [ColdFigures, ColdFigures];
  const [coldLargest] = (await cold('largest', [launch])) as [ColdFigures];
  const [coldRest] = (await cold('rest', [launch])) as [ColdFigures];
  const servers = loadCorpus();
  const tools = servers.reduce((n, s) => n + s.definitions.length, 0);
  const warmUs = warm(servers, tools);
  const census = (() => {
    const offered = servers.flatMap((s) => offerTools(s.definitions).offered);
    const t0 = performance.now();
    for (let i = 0; i < 20; i += 1) nameCensus(offered);
    return (performance.now() - t0) / 20;
  })();
  const turn = perTurn(twoThousand(servers));
  return [
    {
      name: `conform the corpus (${tools} tools) cold, fresh process started as toolseam starts (${coldRun.flags.join(' ')}), load garbage collected first, median of 7`,
      value: coldRun.conform,
      unit: 'ms',
      target: '< 50 ms',
      ok: coldRun.conform < 50,
    },
    {
      name: '  the same over the machine yardstick (comparable across machines and days)',
      value: coldRun.conform / runYardstickMs(),
      unit: '×',
    },
    { name: '  the fastest of those 7 passes', value: coldRun.fastest, unit: 'ms' },
    { name: '  the slowest', value: coldRun.slowest, unit: 'ms' },
    ...(Number.isNaN(coldRun.main)
      ? []
      : [
          {
            name: '  the same pass: main-thread CPU time (no waiting for a core)',
            value: coldRun.main,
            unit: 'ms',
          },
        ]),
    { name: '  the same pass: CPU time of all its threads', value: coldRun.cpu, unit: 'ms' },
    {
      name: `  only ${LARGEST_SERVER} (${coldLargest.offered} tools), cold`,
      value: coldLargest.conform,
      unit: 'ms',
    },
    { name: '    its main-thread CPU time', value: coldLargest.main, unit: 'ms' },
    { name: `  every other server (${coldRest.offered} tools), cold`, value: coldRest.conform, unit: 'ms' },
    { name: '    their main-thread CPU time', value: coldRest.main, unit: 'ms' },
    { name: 'load the seam module in that fresh process', value: coldRun.load, unit: 'ms' },
    {
      name: 'the same pass as Node starts by default, as a host embedding the library gets it (4 V8 worker threads), 7 taken in turns with the above',
      value: coldDefault.conform,
      unit: 'ms',
    },
    { name: '  its main-thread CPU time', value: coldDefault.main, unit: 'ms' },
    { name: '  CPU time of all its threads', value: coldDefault.cpu, unit: 'ms' },
    {
      name: 'conform warm, per tool (median of 30 corpus passes)',
      value: warmUs,
      unit: 'µs',
      target: '< 10 µs',
      ok: warmUs < 10,
    },
    { name: `name census over the corpus's offered tools`, value: census, unit: 'ms' },
    {
      name: 'per-turn seam, 2,000 unchanged tools (median of 300)',
      value: turn.unchanged,
      unit: 'ms',
      target: '< 1 ms',
      ok: turn.unchanged < 1,
    },
    { name: 'per-turn seam, 2,000 tools with one changed', value: turn.oneChanged, unit: 'ms' },
  ];
}
