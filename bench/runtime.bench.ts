import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { ModelAdapter, ModelEvent, ModelRequest } from '../src/core/model.js';
import { Runtime } from '../src/runtime/runtime.js';
import { openSessionStore } from '../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../src/tools/index.js';
import { createToolRegistry } from '../src/tools/registry/tool-registry.js';
import { launchFlags } from './launch-flags.js';
import type { BenchFigure } from './run.js';
import { percentile } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const SUBJECTS = [
  'invoice',
  'calendar',
  'ticket',
  'playlist',
  'garden',
  'recipe',
  'budget',
  'flight',
  'parcel',
  'lesson',
];

/**
 * A model that answers at once, so a turn's time is the runtime's own: its first reply calls a tool,
 * its second answers with text. Implements the real ModelAdapter interface (no SDK is involved).
 */
class InstantModel implements ModelAdapter {
  readonly provider = 'instant';
  readonly model = 'instant';
  async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    const last = request.messages.at(-1);
    if (last?.role === 'user') {
      yield {
        type: 'tool-call',
        id: `c${request.messages.length}`,
        name: 'manage_parcel_8',
        arguments: '{"id":"p-1","note":"x"}',
      };
      yield { type: 'finish', stopReason: 'tool_use', rawStopReason: 'tool_use' };
    } else {
      yield { type: 'text-delta', text: 'done' };
      yield { type: 'finish', stopReason: 'end_turn', rawStopReason: 'end_turn' };
    }
  }
  toolsNamedInRejection(): string[] {
    return [];
  }
}

/** A runtime over `n` in-process tools, a real SQLite file and the instant model. */
export function benchRuntime(n: number, dir: string): Runtime {
  const tools = Array.from({ length: n }, (_, i) => {
    const subject = SUBJECTS[i % SUBJECTS.length];
    return defineTool({
      name: `manage_${subject}_${i}`,
      description: `Create, update or look up ${subject} records (set ${i}), filtered by owner and date.`,
      risk: 'safe',
      fields: { id: field.string({ maxLength: 40 }), note: field.string({ maxLength: 200, optional: true }) },
      handler: (a) => `${subject} ${a.id} ok`,
    });
  });
  const registry = createToolRegistry();
  registry.register(
    inProcessProvider({ name: 'mcp/bench', group: { key: 'mcp/bench', own: false, purpose: '' }, tools }),
  );
  const store = openSessionStore({ path: join(dir, 'bench.db') });
  return new Runtime({ model: new InstantModel(), registry, store });
}

async function turn(runtime: Runtime, session: string, text: string): Promise<void> {
  for await (const _ of await (await runtime.session(session)).send(text)) {
    // drain
  }
}

/** Run in a fresh process: RSS after building a 2,000-tool runtime and running a few turns. */
export async function rssAfterTurns(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-bench-rss-'));
  const runtime = benchRuntime(2000, dir);
  for (let i = 0; i < 5; i += 1) await turn(runtime, 's', `update parcel record ${i}`);
  const rss = process.memoryUsage().rss / 1024 / 1024;
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });
  return rss;
}

/** Figures: per model round trip overhead with 500 tools; RSS with 2,000 tools in a fresh process. */
export async function bench(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-bench-runtime-'));
  const runtime = benchRuntime(500, dir);
  for (let i = 0; i < 20; i += 1) await turn(runtime, 'warm', `update parcel record ${i}`);
  const perTrip: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const t0 = performance.now();
    await turn(runtime, `s${i % 10}`, `please update the parcel record ${i} for the owner`);
    // A turn is two model round trips (the call, then the answer) plus one tool call.
    perTrip.push((performance.now() - t0) / 2);
  }
  await runtime.close();
  rmSync(dir, { recursive: true, force: true });

  const script = `const m = await import(${JSON.stringify(pathToFileURL(join(here, 'runtime.bench.js')).href)}); process.stdout.write(String(await m.rssAfterTurns()));`;
  // Started as toolseam starts Node, without NODE_OPTIONS from the shell running the bench.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...launchFlags(), '--input-type=module', '-e', script],
    {
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  const rss = Number(stdout.trim());
  const p50 = percentile(perTrip, 0.5);
  return [
    {
      name: 'runtime overhead per model round trip, 500 tools (p50)',
      value: p50,
      unit: 'ms',
      target: '≤ 3 ms',
      ok: p50 <= 3,
    },
    {
      name: 'runtime overhead per model round trip, 500 tools (p95)',
      value: percentile(perTrip, 0.95),
      unit: 'ms',
    },
    {
      name: 'RSS with 2,000 tools after 5 turns (fresh process, started as toolseam starts)',
      value: rss,
      unit: 'MB',
      target: '≤ 150 MB',
      ok: rss <= 150,
    },
  ];
}
