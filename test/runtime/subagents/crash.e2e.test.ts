import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../src/core/events.js';
import { createModelAdapter } from '../../../src/providers/index.js';
import { Runtime } from '../../../src/runtime/runtime.js';
import { enableSubagents, resumeBatch, unfinishedBatches } from '../../../src/runtime/subagents/index.js';
import { openSessionStore } from '../../../src/store/index.js';
import { startStandIn } from '../../../src/testing/index.js';
import { createToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import { collect, turnEnd } from '../../support/runtime-harness.js';
import { lineProvider } from './batch-crash-child.js';
import { contract, fromLeaf } from './subagent-fixtures.js';

const child = join(import.meta.dirname, 'batch-crash-child.ts');
const FIRST = 'Note the word first in the log';
const SECOND = 'Append the word second to the log';
const THIRD = 'Say which day it is today';

/** Starts a batch in a child process and kills it (SIGKILL) while the second leaf waits for approval. */
async function crashDuringBatch() {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-batch-crash-'));
  const dbPath = join(dir, 'toolseam.db');
  const counter = join(dir, 'lines.log');
  const standIn = await startStandIn({
    family: 'openai',
    script: [
      {
        match: { lastUserIncludes: 'morning round' },
        toolCalls: [
          {
            name: 'subagent_run',
            arguments: {
              tasks: [
                contract(FIRST, 'First', { capability: 'mutating' }),
                contract(SECOND, 'Second', { capability: 'mutating' }),
                contract(THIRD, 'Third'),
              ],
            },
          },
        ],
      },
      { when: fromLeaf(FIRST), toolCalls: [{ name: 'note_line', arguments: { text: 'first' } }] },
      { when: fromLeaf(FIRST), echo: 'lastToolResult' },
      { when: fromLeaf(SECOND), toolCalls: [{ name: 'append_line', arguments: { text: 'second' } }] },
      { when: fromLeaf(SECOND), echo: 'lastToolResult' },
      { when: fromLeaf(THIRD), text: 'It is Tuesday.' },
      { match: { lastUserIncludes: 'morning round' }, echo: 'lastToolResult' },
    ],
  });
  const config = { ...standIn.modelConfig(), retry: { maxRetries: 0 } };
  const proc = spawn(process.execPath, ['--import', 'tsx', child, dbPath, counter, JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TOOLSEAM_BATCH_CRASH_CHILD: '1' },
  });
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => {
      seen += d.toString();
      if (/WAITING \S+/.test(seen)) resolve();
    });
    proc.on('exit', (code) => reject(new Error(`the child exited (${code}) before the second leaf asked`)));
  });
  proc.kill('SIGKILL');
  await new Promise((r) => proc.on('exit', r));
  expect(seen).toContain('LEAF First done');
  expect(seen).not.toContain('LEAF Third');
  return { dir, dbPath, counter, standIn, config };
}

/** A new runtime on the crashed process's database. */
function restart(dbPath: string, counter: string, config: object): Runtime {
  const store = openSessionStore({ path: dbPath });
  const registry = createToolRegistry();
  registry.register(lineProvider(counter));
  const runtime = new Runtime({ model: createModelAdapter(config as never), registry, store });
  enableSubagents(runtime);
  return runtime;
}

describe('a process killed during a batch', () => {
  it('keeps the finished leaf, and a new process resumes the rest with one call, then the parent turn', async () => {
    const { dir, dbPath, counter, standIn, config } = await crashDuringBatch();
    try {
      const runtime = restart(dbPath, counter, config);

      const [unfinished, ...others] = await unfinishedBatches(runtime);
      expect(others).toEqual([]);
      expect(unfinished?.leaves.map((l) => [l.title, l.status])).toEqual([
        ['First', 'done'],
        ['Second', 'running'],
        ['Third', 'queued'],
      ]);
      expect(readFileSync(counter, 'utf8')).toBe('first\n');
      const firstRequests = standIn.requests.filter(fromLeaf(FIRST)).length;

      const events: RuntimeEvent[] = [];
      const resumed = await resumeBatch(runtime, unfinished?.id as string, {
        onEvent: async (event) => {
          events.push(event);
          if (event.type === 'approval-request') {
            await runtime.respond(event.request.id, { kind: 'approve' }, { digest: event.request.digest });
          }
        },
      });
      expect(events.find((e) => e.type === 'approval-request')).toMatchObject({
        request: { tool: 'append_line', leafTitle: 'Second' },
      });
      expect(resumed.batch.status).toBe('done');
      expect(resumed.batch.leaves.map((l) => [l.status, l.output])).toEqual([
        ['done', 'appended first'],
        ['done', 'appended second'],
        ['done', 'It is Tuesday.'],
      ]);
      expect(readFileSync(counter, 'utf8')).toBe('first\nsecond\n');
      expect(standIn.requests.filter(fromLeaf(FIRST))).toHaveLength(firstRequests);
      expect(resumed.deliveredToParent).toBe(true);
      expect(await unfinishedBatches(runtime)).toEqual([]);
      await expect(resumeBatch(runtime, resumed.batch.id)).rejects.toThrow(/already finished/);

      // The parent turn, orphaned too, goes on: its model reads the batch's result.
      const [parentTurn] = await runtime.orphanedTurns();
      expect(parentTurn?.sessionId).toBe('crash-parent');
      const end = turnEnd(await collect(await runtime.resumeTurn(parentTurn?.id as string)));
      expect(end.status).toBe('done');
      expect(end.message).toMatch(/^Batch \S+: 3 leaves \(3 done\)\./);
      await runtime.close();
    } finally {
      await standIn.close();
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
  it('resuming the parent turn alone finishes the batch first, asking through the parent stream', async () => {
    const { dir, dbPath, counter, standIn, config } = await crashDuringBatch();
    try {
      const runtime = restart(dbPath, counter, config);
      const parent = (await runtime.orphanedTurns()).find((t) => t.sessionId === 'crash-parent');
      const events: RuntimeEvent[] = [];
      for await (const event of await runtime.resumeTurn(parent?.id as string)) {
        events.push(event);
        if (event.type === 'approval-request') {
          await runtime.respond(event.request.id, { kind: 'approve' }, { digest: event.request.digest });
        }
      }
      expect(events.find((e) => e.type === 'approval-request')).toMatchObject({
        request: { leafTitle: 'Second' },
      });
      expect(turnEnd(events)).toMatchObject({ status: 'done' });
      expect(turnEnd(events).message).toMatch(/3 leaves \(3 done\)/);
      expect(readFileSync(counter, 'utf8')).toBe('first\nsecond\n');
      expect(await unfinishedBatches(runtime)).toEqual([]);
      await runtime.close();
    } finally {
      await standIn.close();
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
