import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/testing/event-stream-reader.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { expectError, expectJson, type Served, startServed } from './served.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const email = { toolCalls: [{ name: 'send_email', arguments: { to: 'ann@example.com', body: 'hi' } }] };

interface Approval {
  id: string;
  status: string;
  scope: string | null;
  reason: string | null;
  always: { session: string; forever: string } | null;
}

/** Sends `text` on a new session and waits for its approval to be listed. */
async function waitingApproval(s: Served, text: string) {
  const { id } = await expectJson<{ id: string }>(await s.api('/api/sessions', { json: {} }), 201, 'Session');
  const started = await expectJson<{ turnId: string; events: string }>(
    await s.api(`/api/sessions/${id}/messages`, { json: { text } }),
    202,
    'TurnStarted',
  );
  const stream = await s.api(started.events);
  for (;;) {
    const { approvals } = await expectJson<{ approvals: Approval[] }>(
      await s.api(`/api/approvals?sessionId=${id}`),
      200,
      'ApprovalList',
    );
    if (approvals[0]) return { sessionId: id, approval: approvals[0], stream };
  }
}

describe('approvals over HTTP', () => {
  it('approves once, runs the tool once, and refuses a second answer with 409 approval_answered', async () => {
    const counts: RunCounts = new Map();
    served = await startServed({
      script: [email, { echo: 'lastToolResult' }],
      providers: [demoProvider(counts)],
    });
    const { approval, stream } = await waitingApproval(served, 'mail Ann');
    expect(approval.always?.session).toContain('in this session');
    const answered = await expectJson<Approval>(
      await served.api(`/api/approvals/${approval.id}`, { json: { decision: 'approve' } }),
      200,
      'Approval',
    );
    expect(answered.status).toBe('approved');
    const events = await readEvents(stream, (e) => e.event === 'turn-end');
    expect(events.at(-1)?.data).toMatchObject({ status: 'done', message: 'sent to ann@example.com' });
    expect(counts.get('send_email')).toBe(1);
    const again = await expectError(
      await served.api(`/api/approvals/${approval.id}`, { json: { decision: 'deny' } }),
      409,
      'approval_answered',
    );
    expect(again.error.approvalId).toBe(approval.id);
  });

  it('denies with a reason, and the model is told it', async () => {
    const counts: RunCounts = new Map();
    served = await startServed({
      script: [email, { echo: 'lastToolResult' }],
      providers: [demoProvider(counts)],
    });
    const { approval, stream } = await waitingApproval(served, 'mail Ann');
    const denied = await expectJson<Approval>(
      await served.api(`/api/approvals/${approval.id}`, {
        json: { decision: 'deny', reason: 'Ann is on holiday' },
      }),
      200,
      'Approval',
    );
    expect([denied.status, denied.reason]).toEqual(['denied', 'Ann is on holiday']);
    const events = await readEvents(stream, (e) => e.event === 'turn-end');
    expect(String(events.at(-1)?.data.message)).toContain('Ann is on holiday');
    expect(counts.get('send_email')).toBeUndefined();
  });

  it('answers always for the session, with its scope stored', async () => {
    served = await startServed({ script: [email, { text: 'done' }], providers: [demoProvider()] });
    const { approval, stream } = await waitingApproval(served, 'mail Ann');
    const answered = await expectJson<Approval>(
      await served.api(`/api/approvals/${approval.id}`, { json: { decision: 'approve', always: 'session' } }),
      200,
      'Approval',
    );
    expect(answered.scope).toBe('session');
    await readEvents(stream, (e) => e.event === 'turn-end');
    const grants = await served.runtime.options.store.listGrants({
      sessionId: (await served.runtime.options.store.getApproval(approval.id))?.sessionId,
    });
    expect(grants.map((g) => g.tool)).toEqual(['send_email']);
  });

  it('refuses an answer bound to another call (digest) and a malformed decision', async () => {
    served = await startServed({ script: [email, { text: 'done' }], providers: [demoProvider()] });
    const { approval } = await waitingApproval(served, 'mail Ann');
    await expectError(
      await served.api(`/api/approvals/${approval.id}`, {
        json: { decision: 'approve', digest: 'f'.repeat(64) },
      }),
      409,
      'approval_mismatch',
    );
    await expectError(
      await served.api(`/api/approvals/${approval.id}`, { json: { decision: 'approve', always: 'ever' } }),
      400,
      'bad_request',
    );
    await expectError(await served.api(`/api/approvals/${approval.id}`, { json: {} }), 400, 'bad_request');
    expect((await served.runtime.options.store.getApproval(approval.id))?.status).toBe('pending');
  });
});
