import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '../src/core/json.js';
import { openSessionStore } from '../src/store/index.js';
import { builtinProviders } from '../src/tools/builtin/index.js';
import { shellSandbox } from '../src/tools/builtin/sandbox-probe.js';
import { makeToolContext } from '../src/tools/index.js';
import type { BenchFigure } from './run.js';
import { percentile } from './stats.js';

/** Calls of each kind; taken in turns, one sandboxed and one unconfined per round. */
const ROUNDS = 60;

/** The CPU time (user and system) of this process's ended and reaped children so far, in ms (Linux). */
function childCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // cutime and cstime (the line's fields 16 and 17), in clock ticks of 10 ms.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** A workspace the size of a small project: 200 folders, 2,000 files, a few credential files among them. */
function project(dir: string): string {
  const ws = join(dir, 'ws');
  for (let f = 0; f < 200; f += 1) {
    const folder = join(ws, `src${f % 10}`, `part${f}`);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < 10; i += 1) writeFileSync(join(folder, `file${i}.ts`), 'export {};\n');
  }
  writeFileSync(join(ws, '.env'), 'API_TOKEN=x\n');
  writeFileSync(join(ws, 'src0', 'server.pem'), 'pem\n');
  return ws;
}

/**
 * What the sandbox adds to one `bash` call: the same command (`true`) through the bash tool, sandboxed and
 * unconfined, taken in turns so a drifting machine weighs on both alike. The sandboxed call includes the
 * workspace scan for credential files (2,000 files, 200 folders) and bubblewrap's start.
 */
export async function bench(): Promise<BenchFigure[]> {
  if (!shellSandbox().ready) {
    return [
      { name: 'shell sandbox: no sandbox can start on this machine, nothing measured', value: 0, unit: '' },
    ];
  }
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-shell-bench-'));
  const ws = project(dir);
  const store = openSessionStore({ path: join(dir, 'store.db') });
  const session = (await store.createSession({ title: 'bench' })).id;
  const bashOf = (sandbox: 'on' | 'off') => {
    const shell = builtinProviders({ workspace: [ws], memory: store, tasks: store, shell: { sandbox } }).find(
      (p) => p.name === 'builtin/shell',
    );
    if (shell === undefined) throw new Error('no shell provider');
    return (args: JsonObject) => shell.invoke('bash', args, makeToolContext({ sessionId: session }));
  };
  const sandboxed = bashOf('on');
  const unconfined = bashOf('off');
  const args = { command: 'true' };
  // Warm both: the first sandboxed call lists /etc's private files and reads every folder of the workspace.
  await sandboxed(args);
  await unconfined(args);
  const inSandbox: number[] = [];
  const outside: number[] = [];
  const cpu = { inSandbox: 0, outside: 0 };
  for (let round = 0; round < ROUNDS; round += 1) {
    let t0 = performance.now();
    let c0 = childCpuMs();
    const a = await sandboxed(args);
    inSandbox.push(performance.now() - t0);
    cpu.inSandbox += childCpuMs() - c0;
    t0 = performance.now();
    c0 = childCpuMs();
    const b = await unconfined(args);
    outside.push(performance.now() - t0);
    cpu.outside += childCpuMs() - c0;
    if (a.isError || b.isError) throw new Error(`bash failed in the bench: ${a.content} / ${b.content}`);
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  const cost = inSandbox.map((t, i) => t - (outside[i] as number));
  const costP50 = percentile(cost, 0.5);
  return [
    { name: 'bash call `true`, sandboxed (p50)', value: percentile(inSandbox, 0.5), unit: 'ms' },
    { name: 'bash call `true`, sandboxed (p95)', value: percentile(inSandbox, 0.95), unit: 'ms' },
    { name: 'bash call `true`, unconfined, same run (p50)', value: percentile(outside, 0.5), unit: 'ms' },
    { name: 'bash call `true`, unconfined, same run (p95)', value: percentile(outside, 0.95), unit: 'ms' },
    {
      name: "sandbox's start cost per bash call (p50 of paired differences)",
      value: costP50,
      unit: 'ms',
      target: '< 30 ms',
      ok: costP50 < 30,
    },
    {
      name: "sandbox's start cost per bash call (p95 of paired differences)",
      value: percentile(cost, 0.95),
      unit: 'ms',
    },
    // Less swayed by a busy machine than the wall clock: what the started processes themselves used.
    {
      name: 'CPU time of the processes one call starts, sandboxed (mean)',
      value: cpu.inSandbox / ROUNDS,
      unit: 'ms',
    },
    {
      name: 'CPU time of the processes one call starts, unconfined (mean)',
      value: cpu.outside / ROUNDS,
      unit: 'ms',
    },
  ];
}
