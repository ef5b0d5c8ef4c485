import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../src/core/events.js';
import { createRuntime } from '../../src/create-runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { turnEnd } from '../support/runtime-harness.js';

// A runtime on the scripted model itself: no stand-in, no HTTP, no SDK (see docs/architecture.md on
// which tests should use which).

let dir: string;
let runtime: Runtime | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-in-process-'));
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function start(model: ScriptedModel, counts: RunCounts = new Map()): Promise<Runtime> {
  runtime = await createRuntime({
    model,
    store: join(dir, 'toolseam.db'),
    builtins: false,
    subagents: false,
    tools: [demoProvider(counts)],
  });
  return runtime;
}

/** Every event of a turn, approving each call it asks about. */
async function approving(run: Runtime, events: AsyncIterable<RuntimeEvent>): Promise<RuntimeEvent[]> {
  const out: RuntimeEvent[] = [];
  for await (const event of events) {
    out.push(event);
    if (event.type === 'approval-request')
      await run.respond(event.request.id, { kind: 'approve' }, { digest: event.request.digest });
  }
  return out;
}

describe('a runtime on the scripted model, in-process', () => {
  it('runs a turn whose tool call is asked about, approved and run once, and the model reads its result', async () => {
    const counts: RunCounts = new Map();
    const model = new ScriptedModel([
      { toolCalls: [{ name: 'archive_mail', arguments: { id: 7 } }] },
      { echo: 'lastToolResult' },
    ]);
    const run = await start(model, counts);
    const events = await approving(run, await (await run.session('s')).send('archive mail 7'));
    expect(events.find((e) => e.type === 'approval-request')).toMatchObject({
      request: { tool: 'archive_mail', arguments: { id: 7 }, risk: 'destructive' },
    });
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'archived 7' });
    expect(counts.get('archive_mail')).toBe(1);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.tools.map((t) => t.name)).toContain('archive_mail');
    expect(model.requests[1]?.lastToolResult).toMatchObject({ name: 'archive_mail', content: 'archived 7' });
    // the turn and its call are stored as with any model
    const stored = await run.options.store.listMessages('s');
    expect(stored.map((m) => m.message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('quarantines a tool the model refuses and answers without it', async () => {
    const model = new ScriptedModel([{ text: 'Done without it.' }]).rejectTool('send_email');
    const run = await start(model);
    const events = await approving(run, await (await run.session('s')).send('hello'));
    expect(events.find((e) => e.type === 'tools-quarantined')).toMatchObject({
      tools: ['send_email'],
    });
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'Done without it.' });
    expect(model.requests.at(-1)?.tools.map((t) => t.name)).not.toContain('send_email');
  });
});
