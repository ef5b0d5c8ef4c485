import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../src/core/events.js';
import { enableSubagents } from '../../../src/runtime/subagents/index.js';
import type { ScriptTurn } from '../../../src/testing/index.js';
import { demoProvider, type RunCounts } from '../../support/demo-tools.js';
import { callEnds, type RuntimeHarness, startHarness, turnEnd } from '../../support/runtime-harness.js';
import { contract, fromLeaf, leafStates, scopeProvider } from './subagent-fixtures.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const ARCHIVE = 'Archive mail number 7 from the inbox';
const WEATHER = 'Look up the weather in Paris for tomorrow';
const CALENDAR = 'Read every calendar entry of next week';

const parentAsks = (args: Record<string, unknown>): ScriptTurn => ({
  match: { lastUserIncludes: 'morning round' },
  toolCalls: [{ name: 'subagent_run', arguments: args }],
});
const parentEchoes: ScriptTurn = { match: { lastUserIncludes: 'morning round' }, echo: 'lastToolResult' };

/** Runs a turn to its end, answering every approval request with `answer`. */
async function drive(
  events: AsyncIterable<RuntimeEvent>,
  answer: (e: Extract<RuntimeEvent, { type: 'approval-request' }>) => unknown = () => {},
): Promise<RuntimeEvent[]> {
  const out: RuntimeEvent[] = [];
  for await (const event of events) {
    out.push(event);
    if (event.type === 'approval-request') await answer(event);
  }
  return out;
}

describe('subagent_run end to end (real SDK, loopback stand-in, SQLite)', () => {
  it('runs three leaves: one approved through the parent stream, one failing, one timing out', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [
        parentAsks({
          tasks: [
            contract(ARCHIVE, 'Archive', { capability: 'mutating' }),
            contract(WEATHER, 'Weather'),
            contract(CALENDAR, 'Calendar'),
          ],
        }),
        { when: fromLeaf(ARCHIVE), toolCalls: [{ name: 'archive_mail', arguments: { id: 7 } }] },
        { when: fromLeaf(ARCHIVE), echo: 'lastToolResult' },
        { when: fromLeaf(WEATHER), error: { status: 500, message: 'the weather model is down' } },
        { when: fromLeaf(CALENDAR), delayMs: 20_000, text: 'too late' },
        parentEchoes,
      ],
    });
    enableSubagents(h.runtime, { leafTimeoutMs: 4_000 });
    const runtime = h.runtime;
    const events = await drive(await (await runtime.session('parent')).send('do the morning round'), (e) =>
      runtime.respond(e.request.id, { kind: 'approve' }, { digest: e.request.digest }),
    );

    const asks = events.filter((e) => e.type === 'approval-request');
    expect(asks).toHaveLength(1);
    expect(asks[0]).toMatchObject({
      request: { tool: 'archive_mail', leafTitle: 'Archive', arguments: { id: 7 } },
    });
    expect(counts.get('archive_mail')).toBe(1);

    expect(leafStates(events, 'Archive')).toEqual(['started', 'approval-needed', 'tool-call', 'done']);
    expect(leafStates(events, 'Weather')).toEqual(['started', 'failed']);
    expect(leafStates(events, 'Calendar')).toEqual(['started', 'timed_out']);

    const [call] = callEnds(events);
    expect(call).toMatchObject({ tool: 'subagent_run', isError: false });
    const text = call?.content ?? '';
    expect(text).toMatch(/^Batch \S+: 3 leaves \(1 done, 1 failed, 1 timed out\)\./);
    expect(text).toContain(
      '## 1. Archive: done\nOutput (declared format: One short sentence of plain text):\narchived 7',
    );
    expect(text).toContain('## 2. Weather: failed');
    expect(text).toContain('the weather model is down');
    expect(text).toContain('## 3. Calendar: timed out');
    expect(text).toContain('did not finish within its time limit of 4 seconds');
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: text });

    const [batch] = await runtime.options.store.listBatches({ parentSessionId: 'parent' });
    expect(batch?.status).toBe('failed');
    expect(batch?.leaves.map((l) => l.status)).toEqual(['done', 'failed', 'timed_out']);
    expect(batch?.leaves[0]?.output).toBe('archived 7');
    expect(batch?.leaves.every((l) => l.childSessionId !== undefined)).toBe(true);

    const requests = h.standIn.requests;
    const parentTools = requests.find((r) => r.lastUserMessage.includes('morning round'))?.tools ?? [];
    expect(parentTools.map((t) => t.name)).toContain('subagent_run');
    for (const leafRequest of requests.filter((r) => r.lastUserMessage.includes('Task: '))) {
      expect(leafRequest.tools.map((t) => t.name)).not.toContain('subagent_run');
    }
  }, 30_000);

  it('"always" for this session, given to a leaf, covers its sibling leaves and the parent session, in its scope', async () => {
    const counts: RunCounts = new Map();
    const task = (id: number) => `Send the team note number ${id}`;
    const sends = (id: number): ScriptTurn[] => [
      {
        when: fromLeaf(task(id)),
        toolCalls: [{ name: 'send_email', arguments: { to: 'team@example.com', body: `note ${id}` } }],
      },
      { when: fromLeaf(task(id)), echo: 'lastToolResult' },
    ];
    const leaves = [7, 8].map((id) => contract(task(id), `Note ${id}`, { capability: 'mutating' }));
    const more = { match: { lastUserIncludes: 'one more' } };
    const elsewhere = { match: { lastUserIncludes: 'the boss' } };
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [
        parentAsks({ tasks: leaves }),
        ...sends(7),
        ...sends(8),
        parentEchoes,
        {
          ...more,
          toolCalls: [{ name: 'send_email', arguments: { to: 'team@example.com', body: 'note 9' } }],
        },
        { ...more, echo: 'lastToolResult' },
        {
          ...elsewhere,
          toolCalls: [{ name: 'send_email', arguments: { to: 'boss@example.com', body: 'hi' } }],
        },
        { ...elsewhere, echo: 'lastToolResult' },
      ],
    });
    enableSubagents(h.runtime, { concurrency: 1 });
    const runtime = h.runtime;
    const session = await runtime.session('parent');
    const always = (e: Extract<RuntimeEvent, { type: 'approval-request' }>) =>
      runtime.respond(e.request.id, { kind: 'approve', always: 'session' }, { digest: e.request.digest });
    const asked = (events: RuntimeEvent[]) => events.filter((e) => e.type === 'approval-request');
    const first = asked(await drive(await session.send('do the morning round'), always));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      request: { always: { kind: 'arguments', values: { to: 'team@example.com' } } },
    });
    const later = await drive(await session.send('one more'), always);
    expect(asked(later)).toHaveLength(0);
    expect(counts.get('send_email')).toBe(3);
    expect(turnEnd(later).message).toBe('sent to team@example.com');
    // Mail to someone else is outside what "always" covered: asked again.
    const deny = (e: Extract<RuntimeEvent, { type: 'approval-request' }>) =>
      runtime.respond(e.request.id, { kind: 'deny' }, { digest: e.request.digest });
    expect(asked(await drive(await session.send('write to the boss'), deny))).toHaveLength(1);
    expect(counts.get('send_email')).toBe(3);
  });

  it('refuses a batch without contracts before anything starts, asking nobody', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      script: [parentAsks({ tasks: ['check the inbox', 'check the calendar'] }), parentEchoes],
    });
    enableSubagents(h.runtime);
    const events = await drive(await (await h.runtime.session('parent')).send('the morning round'));
    expect(events.some((e) => e.type === 'approval-request' || e.type === 'leaf')).toBe(false);
    const [call] = callEnds(events);
    expect(call).toMatchObject({ isError: true, notRun: 'refused_by_tool', refusedBy: 'preflight' });
    expect(call?.content).toContain('the batch did not compile');
    expect(call?.content).toContain('[leaf_contract_missing]');
    expect(await h.runtime.options.store.listBatches()).toEqual([]);
    expect(h.standIn.requests).toHaveLength(2);
  });

  it("confines a leaf's file tools to its writes, keeps them out of off_limits, and leaves research leaves nothing", async () => {
    const probe = { toolCalls: [{ name: 'where_may_i_write', arguments: {} }] };
    h = await startHarness({
      providers: [scopeProvider()],
      script: [
        parentAsks({
          tasks: [
            contract('Write the summary note', 'Writer', {
              capability: 'mutating',
              writes: ['notes/summary'],
              off_limits: 'notes/private',
            }),
            contract('Study the archive folder', 'Reader', { off_limits: ['archive/locked'] }),
          ],
        }),
        { when: fromLeaf('Write the summary note'), ...probe },
        { when: fromLeaf('Write the summary note'), echo: 'lastToolResult' },
        { when: fromLeaf('Study the archive folder'), ...probe },
        {
          when: fromLeaf('Study the archive folder'),
          toolCalls: [{ name: 'save_note', arguments: { text: 'x' } }],
        },
        { when: fromLeaf('Study the archive folder'), echo: 'lastToolResult' },
        parentEchoes,
      ],
    });
    enableSubagents(h.runtime, { concurrency: 1 });
    const events = await drive(await (await h.runtime.session('parent')).send('the morning round'));
    const [batch] = await h.runtime.options.store.listBatches();
    expect(batch?.leaves[0]?.output).toBe('writable=["notes/summary"] offLimits=["notes/private"]');
    // A research leaf runs in plan mode: it may write nowhere, and a tool that changes things is refused.
    expect(batch?.leaves[1]?.output).toContain('read-only gate');
    const readerProbe = h.standIn.requests.find(
      (r) =>
        r.lastUserMessage.includes('Study the archive') && r.lastToolResult?.name === 'where_may_i_write',
    );
    expect(readerProbe?.lastToolResult?.content).toBe('writable=[] offLimits=["archive/locked"]');
    expect(turnEnd(events).status).toBe('done');
  });

  it('a lone task runs as one leaf; a leaf that tries to start a batch of its own is refused', async () => {
    const nested = 'Split the filing into two more leaves';
    h = await startHarness({
      script: [
        parentAsks({ task: { task: nested, capability: 'mutating' } }),
        { when: fromLeaf(nested), toolCalls: [{ name: 'subagent_run', arguments: { task: 'go deeper' } }] },
        { when: fromLeaf(nested), echo: 'lastToolResult' },
        parentEchoes,
      ],
    });
    enableSubagents(h.runtime);
    const events = await drive(await (await h.runtime.session('parent')).send('the morning round'));
    const [batch] = await h.runtime.options.store.listBatches();
    expect(batch?.leaves).toHaveLength(1);
    expect(batch?.leaves[0]).toMatchObject({ title: nested, status: 'done' });
    expect(batch?.leaves[0]?.errors[0]).toMatch(/^subagent_run: .*tool grants do not allow it/);
    expect(await h.runtime.options.store.listBatches()).toHaveLength(1);
    expect(turnEnd(events).status).toBe('done');
  });

  it("a leaf gets no tool its parent's agent withholds", async () => {
    const task = 'Save a note saying hi';
    h = await startHarness({
      providers: [scopeProvider()],
      agents: { reader: { tools: ['where_may_i_write', 'subagent_run'] } },
      script: [
        parentAsks({
          tasks: [
            contract(task, 'Noter', { capability: 'mutating', writes: ['notes'] }),
            contract(`${task} again`, 'Noter again', { capability: 'mutating', writes: ['notes2'] }),
          ],
        }),
        { when: fromLeaf(task), toolCalls: [{ name: 'save_note', arguments: { text: 'from a leaf' } }] },
        { when: fromLeaf(task), echo: 'lastToolResult' },
        parentEchoes,
      ],
    });
    enableSubagents(h.runtime);
    const events = await drive(
      await (await h.runtime.session('parent', { agent: 'reader' })).send('the morning round'),
    );
    expect(callEnds(events)[0]).toMatchObject({ tool: 'subagent_run', isError: false });
    const leafRequests = h.standIn.requests.filter((r) => r.lastUserMessage.includes('Task: '));
    expect(leafRequests.length).toBeGreaterThanOrEqual(2);
    for (const request of leafRequests) expect(request.tools.map((t) => t.name)).not.toContain('save_note');
    const [batch] = await h.runtime.options.store.listBatches();
    for (const leaf of batch?.leaves ?? []) expect(leaf.output ?? '').not.toContain('saved from a leaf');
  });

  it('a plan-mode turn may start a batch, and its leaves run in plan mode: a write is refused', async () => {
    const task = 'Save a note saying hi';
    h = await startHarness({
      providers: [scopeProvider()],
      script: [
        parentAsks({ tasks: [contract(task, 'Noter', { capability: 'mutating', writes: ['notes'] })] }),
        { when: fromLeaf(task), toolCalls: [{ name: 'save_note', arguments: { text: 'from a leaf' } }] },
        { when: fromLeaf(task), echo: 'lastToolResult' },
        parentEchoes,
      ],
    });
    enableSubagents(h.runtime);
    const events = await drive(
      await (await h.runtime.session('parent')).send('the morning round', { mode: 'plan' }),
    );
    expect(callEnds(events)[0]).toMatchObject({ tool: 'subagent_run', isError: false });
    const [batch] = await h.runtime.options.store.listBatches();
    expect(batch?.leaves[0]?.errors.join('\n')).toMatch(/save_note.*read-only gate/);
    expect(batch?.leaves[0]?.output ?? '').not.toContain('saved from a leaf');
  });

  it('`concurrency` bounds the leaves of every batch together: two calls in one reply share it', async () => {
    const tasks = (p: string) =>
      Array.from({ length: 3 }, (_, i) => contract(`Look up item ${p}${i}`, `${p}${i}`));
    const a = tasks('A');
    const b = tasks('B');
    h = await startHarness({
      script: [
        {
          match: { lastUserIncludes: 'morning round' },
          toolCalls: [
            { name: 'subagent_run', arguments: { tasks: a } },
            { name: 'subagent_run', arguments: { tasks: b } },
          ],
        },
        ...[...a, ...b].map((t) => ({ when: fromLeaf(t['task'] as string), delayMs: 200, text: 'found it' })),
        parentEchoes,
      ],
    });
    enableSubagents(h.runtime, { concurrency: 2 });
    let running = 0;
    let most = 0;
    const events = await drive(await (await h.runtime.session('parent')).send('the morning round'));
    for (const e of events) {
      if (e.type !== 'leaf') continue;
      if (e.state === 'started') most = Math.max(most, ++running);
      else if (e.state === 'done' || e.state === 'failed' || e.state === 'timed_out') running -= 1;
    }
    expect(callEnds(events).map((c) => c.isError)).toEqual([false, false]);
    expect(most).toBe(2);
  });

  it('runs at most `concurrency` leaves at once and stops every leaf when the parent turn is stopped', async () => {
    const tasks = Array.from({ length: 5 }, (_, i) => contract(`Slow job number ${i}`, `Job ${i}`));
    h = await startHarness({
      script: [
        parentAsks({ tasks }),
        ...tasks.map((t) => ({ when: fromLeaf(t['task'] as string), delayMs: 20_000, text: 'late' })),
        parentEchoes,
      ],
    });
    enableSubagents(h.runtime, { concurrency: 2 });
    const session = await h.runtime.session('parent');
    let running = 0;
    let most = 0;
    const events: RuntimeEvent[] = [];
    for await (const event of await session.send('the morning round')) {
      events.push(event);
      if (event.type !== 'leaf') continue;
      if (event.state === 'started') running += 1;
      if (['done', 'failed', 'timed_out'].includes(event.state)) running -= 1;
      most = Math.max(most, running);
      if (event.state === 'started' && event.title === 'Job 1') setTimeout(() => session.stop(), 100);
    }
    expect(most).toBe(2);
    const [batch] = await h.runtime.options.store.listBatches();
    expect(batch?.status).toBe('failed');
    expect(batch?.leaves.map((l) => l.status)).toEqual(Array(5).fill('failed'));
    expect(batch?.leaves[0]?.errors[0]).toBe('the batch was stopped before this leaf finished');
    expect(batch?.leaves[4]?.errors[0]).toBe('the batch was stopped before this leaf started');
    expect(turnEnd(events).status).toBe('stopped');
  }, 30_000);
});
