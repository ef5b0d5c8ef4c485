import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
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

const here = dirname(fileURLToPath(import.meta.url));

/** A model that answers at once: its first reply calls `save_text` with `chars` characters of content. */
class BigCallModel implements ModelAdapter {
  readonly provider = 'instant';
  readonly model = 'instant';
  constructor(private readonly chars: number) {}
  async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    if (request.messages.at(-1)?.role === 'user') {
      const content = 'x'.repeat(this.chars);
      yield {
        type: 'tool-call',
        id: 'c1',
        name: 'save_text',
        arguments: `{"name":"big.txt","content":"${content}"}`,
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

/** What one turn with a big argument cost, in a fresh process. */
export interface BigTurnCost {
  readonly ms: number;
  readonly peakRssMb: number;
  readonly dbMb: number;
}

/**
 * Run in a fresh process: one turn whose call carries `chars` characters of arguments, asked about and
 * approved, on a real SQLite file; its time, the process's peak RSS and the database's size after.
 */
export async function bigArgumentTurn(chars: number): Promise<BigTurnCost> {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-bench-big-'));
  const save = defineTool({
    name: 'save_text',
    description: 'Saves a text under a name.',
    risk: 'caution',
    fields: { name: field.string({ maxLength: 100 }), content: field.string() },
    handler: (a) => `saved ${a.content.length} characters as ${a.name}`,
  });
  const registry = createToolRegistry();
  registry.register(inProcessProvider({ name: 'texts', tools: [save] }));
  const path = join(dir, 'bench.db');
  const runtime = new Runtime({
    model: new BigCallModel(chars),
    registry,
    store: openSessionStore({ path }),
  });
  const t0 = performance.now();
  for await (const event of await (await runtime.session('s')).send('save a big text')) {
    if (event.type === 'approval-request') await runtime.respond(event.request.id, { kind: 'approve' });
  }
  const ms = performance.now() - t0;
  await runtime.close();
  const dbMb = statSync(path).size / 1024 / 1024;
  rmSync(dir, { recursive: true, force: true });
  return { ms, peakRssMb: process.resourceUsage().maxRSS / 1024, dbMb };
}

async function inFreshProcess(chars: number): Promise<BigTurnCost> {
  const module = pathToFileURL(join(here, 'large-argument.bench.js')).href;
  const script = `const m = await import(${JSON.stringify(module)}); process.stdout.write(JSON.stringify(await m.bigArgumentTurn(${chars})));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...launchFlags(), '--input-type=module', '-e', script],
    { env: { ...process.env, NODE_OPTIONS: '' }, maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout) as BigTurnCost;
}

/**
 * Figures: one turn whose call carries 50 MB of arguments (past the 1,000,000 characters a call may carry),
 * one with 900 KB (under it), beside the same turn with 1 KB; each in a fresh process.
 */
export async function bench(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const [label, chars] of [
    ['1 KB', 1_000],
    ['900 KB', 900_000],
    ['50 MB', 50 * 1024 * 1024],
  ] as const) {
    const cost = await inFreshProcess(chars);
    figures.push(
      { name: `turn with a ${label} argument: time`, value: cost.ms, unit: 'ms' },
      { name: `turn with a ${label} argument: peak RSS`, value: cost.peakRssMb, unit: 'MB' },
      { name: `turn with a ${label} argument: database size`, value: cost.dbMb, unit: 'MB' },
    );
  }
  return figures;
}
