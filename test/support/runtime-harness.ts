import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RuntimeEvent } from '../../src/core/events.js';
import type { ChatMessage } from '../../src/core/model.js';
import type { ToolProvider } from '../../src/core/tool.js';
import { createModelAdapter, type RetrySettings } from '../../src/providers/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import type { RuntimeOptions } from '../../src/runtime/runtime-options.js';
import { openSessionStore } from '../../src/store/index.js';
import { type ScriptTurn, type StandIn, startStandIn } from '../../src/testing/index.js';
import { createToolRegistry, type ToolRegistry } from '../../src/tools/registry/tool-registry.js';

/** Everything an end-to-end runtime test needs: a stand-in model on loopback, a real SQLite file, a registry. */
export interface RuntimeHarness {
  readonly standIn: StandIn;
  readonly runtime: Runtime;
  readonly registry: ToolRegistry;
  readonly dir: string;
  readonly dbPath: string;
  close(): Promise<void>;
}

/** Options of `startHarness`. */
export interface HarnessOptions extends Partial<Omit<RuntimeOptions, 'model' | 'registry' | 'store'>> {
  readonly family?: 'openai' | 'anthropic' | 'bedrock';
  readonly mode?: 'gemini';
  readonly script?: readonly ScriptTurn[];
  readonly providers?: readonly ToolProvider[];
  /** How the model adapter retries (default: never). */
  readonly retry?: RetrySettings;
  /** Model settings laid over the stand-in's (e.g. `stream: false`, `firstByteTimeoutMs`). */
  readonly modelSettings?: Readonly<Record<string, unknown>>;
  /** How long the store waits for another process's write lock (default: the store's own). */
  readonly busyTimeoutMs?: number;
  /** Tools the registry starts with switched off, as the config's `disabledTools` does. */
  readonly disabledTools?: readonly string[];
}

/** Starts a runtime on the real SDK of `family` against its loopback stand-in, with a fresh SQLite file. */
export async function startHarness(options: HarnessOptions = {}): Promise<RuntimeHarness> {
  const {
    family = 'openai',
    mode,
    script = [],
    providers = [],
    retry,
    modelSettings,
    busyTimeoutMs,
    disabledTools,
    ...rest
  } = options;
  const standIn = await startStandIn({ family, ...(mode ? { mode } : {}), script });
  const model = createModelAdapter({
    ...standIn.modelConfig('stand-in-model'),
    ...modelSettings,
    retry: retry ?? { maxRetries: 0 },
  } as never);
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-runtime-'));
  const dbPath = join(dir, 'toolseam.db');
  const store = openSessionStore({ path: dbPath, ...(busyTimeoutMs === undefined ? {} : { busyTimeoutMs }) });
  const registry = createToolRegistry(disabledTools ? { switchedOff: disabledTools } : {});
  for (const provider of providers) registry.register(provider);
  const runtime = new Runtime({ model, registry, store, workspace: [dir], ...rest });
  return {
    standIn,
    runtime,
    registry,
    dir,
    dbPath,
    async close() {
      await runtime.close();
      await standIn.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Reads every event of a turn. */
export async function collect(events: AsyncIterable<RuntimeEvent>): Promise<RuntimeEvent[]> {
  const out: RuntimeEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The `turn-end` event of a turn's events. */
export function turnEnd(events: readonly RuntimeEvent[]): Extract<RuntimeEvent, { type: 'turn-end' }> {
  const end = events.find((e) => e.type === 'turn-end');
  if (end?.type !== 'turn-end') throw new Error('the turn did not end');
  return end;
}

/** The `tool-call-end` events of a turn. */
export function callEnds(
  events: readonly RuntimeEvent[],
): Extract<RuntimeEvent, { type: 'tool-call-end' }>[] {
  return events.filter(
    (e): e is Extract<RuntimeEvent, { type: 'tool-call-end' }> => e.type === 'tool-call-end',
  );
}

/** The assistant messages of a request the stand-in received. */
export function assistantsOf(messages: readonly ChatMessage[] | undefined) {
  return (messages ?? []).filter(
    (m): m is Extract<ChatMessage, { role: 'assistant' }> => m.role === 'assistant',
  );
}
