import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/core/logger.js';
import { openSessionStore } from '../../src/store/index.js';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';
import { TSX_LOADER } from '../support/tsx-loader.js';

let h: RuntimeHarness | undefined;
const children: ReturnType<typeof spawn>[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await h?.close();
  h = undefined;
});

/** Starts a second process that holds the database's write lock for `ms`; resolves once it holds it. */
async function holdLock(path: string, ms: number): Promise<{ readonly exited: Promise<unknown> }> {
  const script = join(import.meta.dirname, '..', 'support', 'hold-store-lock.ts');
  const child = spawn(process.execPath, ['--import', TSX_LOADER, script, path, String(ms)], {
    stdio: 'pipe',
  });
  children.push(child);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.value !== 'holding') throw new Error('the lock holder did not take the lock');
  return { exited: once(child, 'exit') };
}

/** A tool that, while it works, has another process take the store's write lock for `holdMs`. */
function reportTool(dbPath: () => string, holdMs: number, released: Promise<unknown>[]) {
  return inProcessProvider({
    name: 'reports',
    tools: [
      defineTool({
        name: 'build_report',
        description: 'Builds the quarterly report.',
        risk: 'safe',
        fields: { quarter: field.string({ maxLength: 10 }) },
        handler: async (args) => {
          released.push((await holdLock(dbPath(), holdMs)).exited);
          return `the ${args.quarter} report: revenue up 4 %`;
        },
      }),
    ],
  });
}

describe('a store another process holds locked while a tool finishes', () => {
  it("keeps the tool's output, writes it once the lock is let go, and the turn goes on", async () => {
    const released: Promise<unknown>[] = [];
    const logger = memoryLogger();
    h = await startHarness({
      busyTimeoutMs: 200,
      logger,
      providers: [reportTool(() => h?.dbPath ?? '', 1_500, released)],
      script: [
        { toolCalls: [{ name: 'build_report', arguments: { quarter: 'Q3' } }] },
        { echo: 'lastToolResult' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('build the report'));
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'the Q3 report: revenue up 4 %' });
    const notice = events.find((e) => e.type === 'notice');
    expect(notice).toMatchObject({
      message:
        'the session store cannot take the result of build_report yet (another process holds its lock); it is kept and written as soon as the store answers',
    });
    expect(callEnds(events)).toHaveLength(1);
    await Promise.all(released);
    const store = openSessionStore({ path: h.dbPath });
    try {
      expect((await store.listToolCalls({})).map((c) => [c.status, c.result])).toEqual([
        ['done', 'the Q3 report: revenue up 4 %'],
      ]);
    } finally {
      await store.close();
    }
    expect(logger.records.filter((r) => r.level === 'error' || r.level === 'warn')).toEqual([]);
  });

  it("past the turn's store window: one line, no stack but under info, and the output is written when the store answers again", async () => {
    const released: Promise<unknown>[] = [];
    const logger = memoryLogger();
    h = await startHarness({
      busyTimeoutMs: 100,
      storeRetryMs: 300,
      logger,
      providers: [reportTool(() => h?.dbPath ?? '', 5_000, released)],
      script: [
        { toolCalls: [{ name: 'build_report', arguments: { quarter: 'Q3' } }] },
        { echo: 'lastToolResult' },
        { text: 'All stored.' },
      ],
    });
    const session = await h.runtime.session('s');
    const first = await collect(await session.send('build the report'));
    const end = turnEnd(first);
    expect(end).toMatchObject({ status: 'failed' });
    expect(end.message).toMatch(
      /^The turn failed inside toolseam: The session store \S+ stayed locked by another process/,
    );
    expect(end.message).not.toContain('\n');
    // what a person sees at the default level: no stack (it is logged at info, for --verbose)
    const shown = logger.records.filter((r) => r.level === 'warn' || r.level === 'error');
    expect(shown.some((r) => /\n\s+at /.test(r.message))).toBe(false);
    expect(logger.records.some((r) => r.level === 'info' && /\n\s+at /.test(r.message))).toBe(true);

    await Promise.all(released);
    const second = await collect(await session.send('is it stored?'));
    expect(turnEnd(second)).toMatchObject({ status: 'done' });
    const store = openSessionStore({ path: h.dbPath });
    try {
      expect((await store.listToolCalls({})).map((c) => [c.status, c.result])).toEqual([
        ['done', 'the Q3 report: revenue up 4 %'],
      ]);
      const roles = (await store.listMessages('s')).map((m) => m.message.role);
      expect(roles).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    } finally {
      await store.close();
    }
  });
});
