import { afterEach, describe, expect, it } from 'vitest';
import { serverToken } from '../../src/server/server-token.js';
import { readEvents } from '../../src/testing/event-stream-reader.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { expectError, expectJson, type Served, startServed } from './served.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const email = { toolCalls: [{ name: 'send_email', arguments: { to: 'ann@example.com', body: 'hi' } }] };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface Added {
  user: { id: string; name: string; revokedAt: string | null };
  token: string;
}

describe('people: each user reaches only their own sessions', () => {
  it("answers 404, as for what does not exist, when one user reaches for another's session, turn, stream or approval", async () => {
    const counts: RunCounts = new Map();
    served = await startServed({
      script: [email, { echo: 'lastToolResult' }],
      providers: [demoProvider(counts)],
    });
    const s = served;
    // No users yet: on loopback the owner needs no token, as before.
    const ann = await expectJson<Added>(
      await s.api('/api/users', { json: { name: 'ann' } }),
      201,
      'UserAdded',
    );
    expect(ann.token).toMatch(/^tsu\./);
    // From now on every request needs a token, on loopback too.
    await expectError(await s.api('/api/sessions'), 401, 'unauthorized');
    const owner = bearer(serverToken(s.runtime.options.store.path).token);
    const bob = await expectJson<Added>(
      await s.api('/api/users', { json: { name: 'bob' }, headers: owner }),
      201,
      'UserAdded',
    );
    const asAnn = bearer(ann.token);
    const asBob = bearer(bob.token);

    // Ann's turn waits for her approval.
    const { id } = await expectJson<{ id: string }>(
      await s.api('/api/sessions', { json: { title: 'mail' }, headers: asAnn }),
      201,
      'Session',
    );
    const started = await expectJson<{ turnId: string; events: string }>(
      await s.api(`/api/sessions/${id}/messages`, { json: { text: 'mail Ann' }, headers: asAnn }),
      202,
      'TurnStarted',
    );
    const stream = await s.api(started.events, { headers: asAnn });
    let approvalId: string | undefined;
    while (approvalId === undefined) {
      const { approvals } = await expectJson<{ approvals: { id: string }[] }>(
        await s.api('/api/approvals', { headers: asAnn }),
        200,
        'ApprovalList',
      );
      approvalId = approvals[0]?.id;
    }

    // Bob sees none of it, and each refusal reads as for an id that does not exist.
    const listed = await expectJson<{ sessions: { id: string }[] }>(
      await s.api('/api/sessions', { headers: asBob }),
      200,
      'SessionList',
    );
    expect(listed.sessions).toEqual([]);
    const theirs = await expectError(
      await s.api(`/api/sessions/${id}`, { headers: asBob }),
      404,
      'unknown_session',
    );
    const nobody = await expectError(
      await s.api('/api/sessions/s-nothere', { headers: asBob }),
      404,
      'unknown_session',
    );
    expect(Object.keys(theirs.error).sort()).toEqual(Object.keys(nobody.error).sort());
    await expectError(
      await s.api(`/api/sessions/${id}/messages`, { json: { text: 'hijack' }, headers: asBob }),
      404,
      'unknown_session',
    );
    await expectError(await s.api(`/api/sessions/${id}/events`, { headers: asBob }), 404, 'unknown_session');
    await expectError(await s.api(started.events, { headers: asBob }), 404, 'unknown_session');
    await expectError(
      await s.api(`/api/sessions/${id}/stop`, { method: 'POST', headers: asBob }),
      404,
      'unknown_session',
    );
    await expectError(
      await s.api(`/api/sessions/${id}`, { method: 'DELETE', headers: asBob }),
      404,
      'unknown_session',
    );
    await expectError(await s.api(`/api/turns/${started.turnId}`, { headers: asBob }), 404, 'unknown_turn');
    const bobsApprovals = await expectJson<{ approvals: unknown[] }>(
      await s.api(`/api/approvals?sessionId=${id}`, { headers: asBob }),
      200,
      'ApprovalList',
    );
    expect(bobsApprovals.approvals).toEqual([]);
    await expectError(
      await s.api(`/api/approvals/${approvalId}`, { json: { decision: 'approve' }, headers: asBob }),
      404,
      'unknown_approval',
    );
    // The owner manages users but does not read a user's conversation either.
    await expectError(await s.api(`/api/sessions/${id}`, { headers: owner }), 404, 'unknown_session');
    await expectError(
      await s.api(`/api/approvals/${approvalId}`, { json: { decision: 'deny' }, headers: owner }),
      404,
      'unknown_approval',
    );
    // What reaches every session is the owner's alone.
    await expectError(await s.api('/api/users', { headers: asBob }), 403, 'owner_only');
    await expectError(
      await s.api('/api/tools/send_email', { method: 'PUT', json: { on: false }, headers: asBob }),
      403,
      'owner_only',
    );
    await expectError(
      await s.api(`/api/approvals/${approvalId}`, {
        json: { decision: 'approve', always: 'forever' },
        headers: asAnn,
      }),
      403,
      'owner_only',
    );
    expect(counts.get('send_email') ?? 0).toBe(0);

    // Ann answers her own, and her turn goes on.
    await expectJson(
      await s.api(`/api/approvals/${approvalId}`, { json: { decision: 'approve' }, headers: asAnn }),
      200,
      'Approval',
    );
    const events = await readEvents(stream, (e) => e.event === 'turn-end');
    expect(events.at(-1)?.data).toMatchObject({ status: 'done' });
    expect(counts.get('send_email')).toBe(1);
    const turn = await expectJson<{ status: string }>(
      await s.api(`/api/turns/${started.turnId}`, { headers: asAnn }),
      200,
      'Turn',
    );
    expect(turn.status).toBe('done');
    expect((await s.runtime.options.store.getApproval(approvalId))?.answeredBy).toBe('http:ann');
  });

  it('signs a user in with a cookie, stops a revoked token at once, and never shows a token or its hash', async () => {
    served = await startServed({ script: [] });
    const s = served;
    const ann = await expectJson<Added>(
      await s.api('/api/users', { json: { name: 'ann' } }),
      201,
      'UserAdded',
    );
    const owner = bearer(serverToken(s.runtime.options.store.path).token);
    const signIn = await s.api('/api/sign-in', { json: { token: ann.token } });
    expect(signIn.status).toBe(204);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).not.toContain(ann.token.split('.')[2]);
    const made = await expectJson<{ id: string }>(
      await s.api('/api/sessions', { json: {}, headers: { cookie } }),
      201,
      'Session',
    );
    const store = s.runtime.options.store;
    expect((await store.getSession(made.id))?.userId).toBe(ann.user.id);
    // A batch of Ann's session is hers: another user (here Cy) is told there is none.
    const cy = await expectJson<Added>(
      await s.api('/api/users', { json: { name: 'cy' }, headers: owner }),
      201,
      'UserAdded',
    );
    const turn = await store.startTurn({ sessionId: made.id, userText: 'fan out' });
    const batch = await store.createBatch({
      parentSessionId: made.id,
      turnId: turn.id,
      callId: 'c1',
      title: 'b',
      leaves: [{ title: 'one', contract: { task: 'one' } }],
    });
    await expectJson(await s.api(`/api/batches/${batch.id}`, { headers: { cookie } }), 200, 'Batch');
    await expectError(
      await s.api(`/api/batches/${batch.id}`, { headers: bearer(cy.token) }),
      404,
      'unknown_batch',
    );
    await expectError(await s.api('/api/sign-in', { json: { token: `${ann.token}x` } }), 401, 'unauthorized');

    const users = await expectJson<{ users: Record<string, unknown>[] }>(
      await s.api('/api/users', { headers: owner }),
      200,
      'UserList',
    );
    expect(JSON.stringify(users)).not.toMatch(/tsu\.|[0-9a-f]{64}/);
    expect((await s.api('/api/users/ann', { method: 'DELETE', headers: owner })).status).toBe(204);
    await expectError(await s.api('/api/sessions', { headers: bearer(ann.token) }), 401, 'unauthorized');
    await expectError(await s.api('/api/sessions', { headers: { cookie } }), 401, 'unauthorized');
    await expectError(
      await s.api('/api/users/nobody', { method: 'DELETE', headers: owner }),
      404,
      'unknown_user',
    );
    await expectError(
      await s.api('/api/users', { json: { name: 'Not A Name' }, headers: owner }),
      400,
      'bad_request',
    );
  });
});
