import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject } from '../../../src/core/json.js';
import type { SessionStore } from '../../../src/core/session-store.js';
import type { ToolContext, ToolResult } from '../../../src/core/tool.js';
import { openSessionStore } from '../../../src/store/index.js';
import { type BuiltinOptions, builtinProviders } from '../../../src/tools/builtin/index.js';
import { type InProcessProvider, makeToolContext } from '../../../src/tools/index.js';

/** A temp folder holding a workspace, a folder outside it and a real SQLite store. */
export interface Bench {
  /** The temp folder, really resolved. */
  readonly dir: string;
  /** The workspace folder. */
  readonly ws: string;
  /** A folder outside the workspace. */
  readonly outside: string;
  readonly store: SessionStore;
  /** The session the context's calls belong to (it exists in the store). */
  readonly sessionId: string;
  cleanup(): void;
}

/** Makes a fresh bench. */
export async function makeBench(): Promise<Bench> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'toolseam-builtin-')));
  const ws = join(dir, 'ws');
  const outside = join(dir, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  const store = openSessionStore({ path: join(dir, 'store.sqlite') });
  const sessionId = (await store.createSession({ title: 'builtin tests' })).id;
  return {
    dir,
    ws,
    outside,
    store,
    sessionId,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The built-in tools of a bench, callable by tool name. */
export interface Tools {
  readonly providers: readonly InProcessProvider[];
  /** A context for one turn (its own turnState); overrides go on top. */
  turn(overrides?: Partial<ToolContext>): ToolContext;
  invoke(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
  preflight(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult | undefined>;
}

/** Builds the built-in providers on a bench (workspace = the bench's, memory and tasks = its store). */
export function toolsOn(bench: Bench, options: Partial<BuiltinOptions> = {}): Tools {
  const providers = builtinProviders({
    workspace: [bench.ws],
    memory: bench.store,
    tasks: bench.store,
    ...options,
  });
  const byTool = new Map<string, InProcessProvider>();
  for (const provider of providers) for (const name of provider.tools.keys()) byTool.set(name, provider);
  const providerOf = (name: string): InProcessProvider => {
    const provider = byTool.get(name);
    if (provider === undefined) throw new Error(`no built-in tool ${name}`);
    return provider;
  };
  return {
    providers,
    turn: (overrides = {}) => makeToolContext({ sessionId: bench.sessionId, ...overrides }),
    invoke: (name, args, ctx) => providerOf(name).invoke(name, args as JsonObject, ctx),
    preflight: (name, args, ctx) => providerOf(name).preflight(name, args as JsonObject, ctx),
  };
}

/** A fresh bench and its tools, for a `beforeEach`. */
export async function freshBench(
  options: Partial<BuiltinOptions> = {},
): Promise<{ bench: Bench; tools: Tools }> {
  const bench = await makeBench();
  return { bench, tools: toolsOn(bench, options) };
}
