import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createModelAdapter } from '../../src/providers/index.js';
import { openPgBossQueue } from '../../src/queue/index.js';
import { TurnJobs } from '../../src/runtime/jobs/turn-jobs.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { openSessionStore } from '../../src/store/index.js';
import { startStandIn } from '../../src/testing/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { requirePostgres } from '../store/pg-fixtures.js';
import { dropSchema, TEST_PG, until } from '../support/job-processes.js';
import { runToolseam } from './run-toolseam.js';
import { spawnToolseam } from './spawn-toolseam.js';

describe('toolseam worker', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  beforeAll(requirePostgres);
  afterEach(async () => {
    for (const clean of cleanups.splice(0).reverse()) await clean().catch(() => undefined);
  });

  it('says what it needs when there is no job queue', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-worker-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const { code, stderr } = await runToolseam(['worker', '--db', join(dir, 'toolseam.db')], dir);
    expect(code).toBe(2);
    expect(stderr).toMatch(/needs a job queue: pass --queue postgres:\/\//);
    const bad = await runToolseam(['worker', '--queue', 'redis://h', '--concurrency', '2'], dir);
    expect(bad.stderr).toMatch(/--queue takes a postgres:\/\/ URL/);
  });

  it('runs a turn sent to the queue, then stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-worker-'));
    const schema = `worker_cli_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
    const db = join(dir, 'toolseam.db');
    const standIn = await startStandIn({ family: 'openai', script: [{ text: 'Answered by the worker.' }] });
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    cleanups.push(() => dropSchema(schema));
    cleanups.push(() => standIn.close());
    const config = join(dir, 'toolseam.json');
    writeFileSync(config, JSON.stringify({ queue: { url: TEST_PG, schema, concurrency: 2 } }));
    const args = ['worker', '--config', config, '--db', db, '--base-url', standIn.baseURL, '--model', 'demo'];
    const worker = spawnToolseam(args, dir);
    cleanups.push(async () => worker.proc.kill('SIGKILL'));
    await until(
      () => worker.stdout().includes('toolseam worker: working (2 at once)'),
      'the worker to start',
    );

    // The sending side, as `serve` has it in hosted mode.
    const store = openSessionStore({ path: db });
    // The same model as the worker's flags: a turn goes on only with the model it was started for.
    const modelConfig = standIn.modelConfig('demo');
    const model = createModelAdapter({ ...modelConfig, retry: { maxRetries: 0 } } as never);
    const runtime = new Runtime({
      model,
      modelBaseURL: (modelConfig as { baseURL: string }).baseURL,
      registry: createToolRegistry(),
      store,
    });
    const queue = await openPgBossQueue({ url: TEST_PG, schema });
    cleanups.push(async () => {
      await queue.stop({ timeoutMs: 1_000 });
      await runtime.close();
    });
    const session = await runtime.session();
    const turn = await runtime.queueTurn(session.id, 'Hello, worker');
    await new TurnJobs({ runtime, queue }).enqueue(turn.id);
    await until(async () => (await store.getTurn(turn.id))?.status === 'done', 'the turn to end').catch(
      (error: Error) => {
        throw new Error(`${error.message}; the worker said: ${worker.stderr()}`);
      },
    );
    const said = (await store.listMessages(session.id)).map((m) => m.message.content);
    expect(said).toContain('Answered by the worker.');

    worker.proc.kill('SIGTERM');
    const { code } = await worker.done;
    expect(code).toBe(0);
  });
});
