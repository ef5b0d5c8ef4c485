import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalDecision } from '../../src/core/approval.js';
import type { RuntimeEvent } from '../../src/core/events.js';
import { callDigest } from '../../src/runtime/calls/call-digest.js';
import { openSessionStore } from '../../src/store/index.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { callEnds, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const archive = { toolCalls: [{ name: 'archive_mail', arguments: { id: 7 } }] };
const echo = { echo: 'lastToolResult' as const };

/** Runs a turn, answering each approval request with `answer` (undefined: leave it waiting). */
async function runAnswering(
  events: AsyncIterable<RuntimeEvent>,
  answer: (e: Extract<RuntimeEvent, { type: 'approval-request' }>) => unknown,
): Promise<RuntimeEvent[]> {
  const out: RuntimeEvent[] = [];
  for await (const event of events) {
    out.push(event);
    if (event.type === 'approval-request') await answer(event);
  }
  return out;
}

describe('approvals', () => {
  const decide = (decision: ApprovalDecision) => (e: Extract<RuntimeEvent, { type: 'approval-request' }>) =>
    h?.runtime.respond(e.request.id, decision, { digest: e.request.digest });

  it('asks with the tool, arguments, risk and meaning; approving runs the call once', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({ providers: [demoProvider(counts)], script: [archive, echo] });
    const events = await runAnswering(
      await (await h.runtime.session('s')).send('archive 7'),
      decide({ kind: 'approve' }),
    );
    const ask = events.find((e) => e.type === 'approval-request');
    expect(ask).toMatchObject({
      request: { tool: 'archive_mail', arguments: { id: 7 }, risk: 'destructive' },
    });
    if (ask?.type === 'approval-request') expect(ask.request.meaning).toMatch(/archive_mail/);
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'archived 7' });
    expect(counts.get('archive_mail')).toBe(1);
  });

  it('keeps marking a turn that waits on a person alive, so no other process takes it for an orphan', async () => {
    h = await startHarness({ providers: [demoProvider()], script: [archive, echo], heartbeatMs: 20 });
    const store = h.runtime.options.store;
    const seen: (string | undefined)[] = [];
    await runAnswering(await (await h.runtime.session('s')).send('archive 7'), async (e) => {
      seen.push((await store.getTurn(e.request.turnId))?.ownerSeenAt);
      setTimeout(async () => {
        seen.push((await store.getTurn(e.request.turnId))?.ownerSeenAt);
        await h?.runtime.respond(e.request.id, { kind: 'deny' }, { digest: e.request.digest });
      }, 150);
    });
    const [first, later] = seen.map((t) => Date.parse(t ?? ''));
    expect(first).toBeGreaterThan(0);
    expect(later).toBeGreaterThan(first as number);
  });

  it("only the person's own deny reads as a decline, with their reason", async () => {
    h = await startHarness({ providers: [demoProvider()], script: [archive, echo] });
    const events = await runAnswering(
      await (await h.runtime.session('s')).send('archive'),
      decide({ kind: 'deny', reason: 'not now' }),
    );
    expect(callEnds(events)[0]).toMatchObject({ refusedBy: 'user' });
    expect(turnEnd(events).message).toContain('the person declined this call to `archive_mail` (not now)');
  });

  it('a request nobody answers ends as "no one answered in time"', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      approvals: { timeoutMs: 300 },
      script: [archive, echo],
    });
    const events = await runAnswering(await (await h.runtime.session('s')).send('archive'), () => {});
    expect(turnEnd(events).message).toContain('no one answered the approval request in time');
    expect(await h.runtime.pendingApprovals()).toEqual([]);
  });

  it('stopping the turn while it waits ends the request as "the turn was stopped"', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({ providers: [demoProvider(counts)], script: [archive, echo] });
    const session = await h.runtime.session('s');
    const events = await runAnswering(await session.send('archive'), () =>
      setTimeout(() => session.stop(), 50),
    );
    expect(callEnds(events)[0]).toMatchObject({ refusedBy: 'stopped', notRun: 'stopped' });
    expect(turnEnd(events).status).toBe('stopped');
    expect(counts.size).toBe(0);
  });

  it("leaving the turn's events while it waits stops it, and the session takes the next message", async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({ providers: [demoProvider(counts)], script: [archive, { text: 'next one' }] });
    const session = await h.runtime.session('s');
    for await (const event of await session.send('archive')) if (event.type === 'approval-request') break;
    const store = openSessionStore({ path: h.dbPath });
    try {
      await expect
        .poll(async () => (await store.listTurns({ sessionId: 's' })).map((t) => t.status))
        .toEqual(['stopped']);
      expect(await store.listApprovals({ status: 'pending' })).toEqual([]);
    } finally {
      await store.close();
    }
    const next: RuntimeEvent[] = [];
    for await (const event of await session.send('something else')) next.push(event);
    expect(turnEnd(next)).toMatchObject({ status: 'done', message: 'next one' });
    expect(counts.size).toBe(0);
  });

  it('approve always (session) grants the tool: the next call does not ask', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({ providers: [demoProvider(counts)], script: [archive, echo, archive, echo] });
    const session = await h.runtime.session('s');
    await runAnswering(await session.send('archive'), decide({ kind: 'approve', always: 'session' }));
    const second = await runAnswering(await session.send('archive again'), () => {
      throw new Error('asked again');
    });
    expect(turnEnd(second).status).toBe('done');
    expect(counts.get('archive_mail')).toBe(2);
  });

  it('the auto policy runs without asking', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      approvals: { policy: 'auto' },
      script: [archive, echo],
    });
    const events = await runAnswering(await (await h.runtime.session('s')).send('archive'), () => {});
    expect(events.some((e) => e.type === 'approval-request')).toBe(false);
    expect(counts.get('archive_mail')).toBe(1);
  });

  it('the deny policy refuses what would ask, as policy', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      approvals: { policy: 'deny' },
      script: [archive, echo],
    });
    const events = await runAnswering(await (await h.runtime.session('s')).send('archive'), () => {});
    expect(callEnds(events)[0]?.refusedBy).toBe('policy');
  });

  it('the deny policy refuses a call even when a standing grant covers its tool', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      approvals: { policy: 'deny' },
      script: [archive, echo],
    });
    const session = await h.runtime.session('s');
    // Granted "always" for this very call in an earlier run, everywhere and in this session.
    const scope = {
      kind: 'exact-arguments',
      digest: callDigest('archive_mail', { id: 7 }),
      summary: 'x',
    } as const;
    await h.runtime.options.store.addGrant({ tool: 'archive_mail', scope });
    await h.runtime.options.store.addGrant({ tool: 'archive_mail', scope, sessionId: session.id });
    const events = await runAnswering(await session.send('archive'), () => {});
    expect(callEnds(events)[0]).toMatchObject({ status: 'refused', refusedBy: 'policy' });
    expect(counts.size).toBe(0);
  });

  it('an answer written by another process (another store on the same file) is picked up', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      approvals: { pollMs: 50 },
      script: [archive, echo],
    });
    const other = openSessionStore({ path: h.dbPath });
    const events = await runAnswering(await (await h.runtime.session('s')).send('archive'), async (e) => {
      await other.answerApproval(
        e.request.id,
        { kind: 'approve' },
        { digest: e.request.digest, answeredBy: 'cli' },
      );
    });
    await other.close();
    expect(turnEnd(events).message).toBe('archived 7');
    expect(counts.get('archive_mail')).toBe(1);
  });

  it('an answer bound to a different call is refused', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      approvals: { timeoutMs: 400 },
      script: [archive, echo],
    });
    let refusal: unknown;
    await runAnswering(await (await h.runtime.session('s')).send('archive'), async (e) => {
      try {
        await h?.runtime.respond(e.request.id, { kind: 'approve' }, { digest: 'not-this-call' });
      } catch (error) {
        refusal = error;
      }
    });
    expect(String(refusal)).toMatch(/digest|different call|does not match/i);
  });

  it('closing the runtime while a turn waits ends the turn cleanly, recorded as stopped', async () => {
    h = await startHarness({ providers: [demoProvider()], script: [archive, echo] });
    const runtime = h.runtime;
    const events = await runAnswering(await (await runtime.session('s')).send('archive'), () => {
      void runtime.close();
    });
    expect(turnEnd(events).status).toBe('stopped');
    const store = openSessionStore({ path: h.dbPath });
    expect((await store.listTurns({ sessionId: 's' })).map((t) => t.status)).toEqual(['stopped']);
    await store.close();
  });
});
