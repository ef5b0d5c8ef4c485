import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/testing/event-stream-reader.js';
import { demoProvider } from '../support/demo-tools.js';
import { expectError, expectJson, expectSchema, type Served, startServed } from './served.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('sessions over HTTP', () => {
  it('creates a session, streams a turn with Accept: text/event-stream, and shows the conversation', async () => {
    served = await startServed({
      script: [{ text: 'Hello there, how can I help?' }],
      providers: [demoProvider()],
    });
    const created = await expectJson<{ id: string }>(
      await served.api('/api/sessions', { json: { title: 'first' } }),
      201,
      'Session',
    );
    const response = await served.api(`/api/sessions/${created.id}/messages`, {
      json: { text: 'hi' },
      headers: { accept: 'text/event-stream' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await readEvents(response);
    for (const e of events) expectSchema('StreamEvent', e.data);
    expect(events[0]?.event).toBe('turn-start');
    expect(events.at(-1)?.event).toBe('turn-end');
    expect(
      events
        .filter((e) => e.event === 'text-delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe('Hello there, how can I help?');
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const detail = await expectJson<{ messages: { role: string; text: string }[] }>(
      await served.api(`/api/sessions/${created.id}`),
      200,
      'SessionDetail',
    );
    expect(detail.messages.map((m) => [m.role, m.text])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello there, how can I help?'],
    ]);
    const list = await expectJson<{ sessions: { id: string; running: boolean }[] }>(
      await served.api('/api/sessions'),
      200,
      'SessionList',
    );
    expect(list.sessions.map((s) => [s.id, s.running])).toEqual([[created.id, false]]);
  });

  it('answers 202 with the turn id, and the stream of ?turn= ends with that turn', async () => {
    served = await startServed({ script: [{ text: 'ok' }] });
    const { id } = await expectJson<{ id: string }>(
      await served.api('/api/sessions', { json: {} }),
      201,
      'Session',
    );
    const started = await expectJson<{ turnId: string; events: string }>(
      await served.api(`/api/sessions/${id}/messages`, { json: { text: 'go' } }),
      202,
      'TurnStarted',
    );
    const events = await readEvents(await served.api(started.events));
    expect(events.map((e) => e.event)).toEqual(['turn-start', 'text-delta', 'turn-end']);
    expect(events.every((e) => e.data.turnId === started.turnId)).toBe(true);
    const turn = await expectJson<{ status: string }>(
      await served.api(`/api/turns/${started.turnId}`),
      200,
      'Turn',
    );
    expect(turn.status).toBe('done');
  });

  it("gives the history's last event id: a stream after it replays the unfinished turn whole, then goes on", async () => {
    const mail = { toolCalls: [{ name: 'send_email', arguments: { to: 'ann@example.com', body: 'hi' } }] };
    served = await startServed({
      script: [{ text: 'first answer' }, mail, { text: 'sent' }],
      providers: [demoProvider()],
    });
    const { id } = await expectJson<{ id: string }>(
      await served.api('/api/sessions', { json: {} }),
      201,
      'Session',
    );
    const stream = (text: string) =>
      served?.api(`/api/sessions/${id}/messages`, {
        json: { text },
        headers: { accept: 'text/event-stream' },
      }) as Promise<Response>;
    const first = await readEvents(await stream('one'));
    const second = await readEvents(await stream('two'), (e) => e.event === 'approval-request');
    const detail = await expectJson<{ lastEventId: string; messages: { role: string; text: string }[] }>(
      await served.api(`/api/sessions/${id}`),
      200,
      'SessionDetail',
    );
    expect(detail.lastEventId).toBe(String(first.at(-1)?.id));
    expect(detail.messages.map((m) => m.text)).toEqual(['one', 'first answer', 'two', '']);
    const after = await readEvents(
      await served.api(`/api/sessions/${id}/events`, { headers: { 'last-event-id': detail.lastEventId } }),
      (e) => e.event === 'approval-request',
    );
    expect(after.map((e) => e.id)).toEqual(second.map((e) => e.id));
  });

  it("shows a subagent batch's leaves as they progress", async () => {
    served = await startServed();
    const store = served.runtime.options.store;
    const parent = await store.createSession();
    const batch = await store.createBatch({
      parentSessionId: parent.id,
      title: 'two lookups',
      leaves: [
        { title: 'first', contract: { task: 'look up one' } },
        { title: 'second', contract: { task: 'look up two' } },
      ],
    });
    const child = await store.createSession();
    await store.claimLeaf(batch.leaves[0]?.id as string, child.id);
    await store.finishLeaf(batch.leaves[0]?.id as string, { status: 'done', output: 'found one' });
    const shown = await expectJson<{ status: string; leaves: { status: string; output: string | null }[] }>(
      await served.api(`/api/batches/${batch.id}`),
      200,
      'Batch',
    );
    expect(shown.status).toBe('running');
    expect(shown.leaves.map((l) => [l.status, l.output])).toEqual([
      ['done', 'found one'],
      ['queued', null],
    ]);
    await expectError(await served.api('/api/batches/b-none'), 404, 'unknown_batch');
    await expectError(await served.api('/api/turns/t-none'), 404, 'unknown_turn');
  });

  it('refuses bad input with a body naming the problem, and keeps serving', async () => {
    served = await startServed({ script: [{ text: 'slow', delayMs: 1_000 }, { text: 'after' }] });
    const { id } = await expectJson<{ id: string }>(
      await served.api('/api/sessions', { json: {} }),
      201,
      'Session',
    );
    await expectError(await served.api('/api/sessions/nope'), 404, 'unknown_session');
    await expectError(
      await served.api('/api/sessions/nope/messages', { json: { text: 'x' } }),
      404,
      'unknown_session',
    );
    await expectError(
      await served.api(`/api/sessions/${id}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"text": ',
      }),
      400,
      'bad_json',
    );
    await expectError(
      await served.api(`/api/sessions/${id}/messages`, { json: { text: 42 } }),
      400,
      'bad_request',
    );
    await expectError(
      await served.api(`/api/sessions/${id}/messages`, { json: { text: 'x', mode: 'fast' } }),
      400,
      'bad_request',
    );
    await expectError(
      await served.api(`/api/sessions/${id}/messages`, { json: { text: 'x'.repeat(1024 * 1024 + 10) } }),
      413,
      'body_too_large',
    );
    await expectError(await served.api(`/api/sessions/${id}/events?after=-1`), 400, 'bad_request');
    await expectError(await served.api('/api/nothing-here'), 404, 'not_found');
    const odd = await served.api('/api/sessions/%E0%A4%A');
    expect([400, 404]).toContain(odd.status);
    expectSchema('Error', await odd.json());
    await expectError(await served.api('/api/sessions', { method: 'PATCH', json: {} }), 404, 'not_found');
    await expectError(await served.api('/api/sessions', { json: [1, 2] }), 400, 'bad_request');
    await expectJson(
      await served.api(`/api/sessions/${id}/messages`, { json: { text: 'first' } }),
      202,
      'TurnStarted',
    );
    await expectError(
      await served.api(`/api/sessions/${id}/messages`, { json: { text: 'second' } }),
      409,
      'turn_running',
    );
    await expectError(
      await served.api('/api/approvals/ap-none', { json: { decision: 'approve' } }),
      404,
      'unknown_approval',
    );
    await expectError(
      await served.api('/api/approvals/ap-none', { json: { decision: 'maybe' } }),
      400,
      'bad_request',
    );
    const health = await expectJson<{ status: string }>(await served.api('/api/health'), 200, 'Health');
    expect(health.status).toBe('ok');
  });

  it('serves its OpenAPI document, a text page at / until the page is built, then the page', async () => {
    const web = mkdtempSync(join(tmpdir(), 'toolseam-web-'));
    try {
      served = await startServed({ webRoot: web });
      const doc = (await (await served.api('/api/openapi.json')).json()) as {
        openapi: string;
        paths: object;
      };
      expect(doc.openapi).toBe('3.1.0');
      expect(Object.keys(doc.paths)).toContain('/api/sessions/{id}/events');
      const before = await served.api('/');
      expect(before.status).toBe(200);
      expect(await before.text()).toContain('npm run build');
      // built while the server runs
      mkdirSync(join(web, 'assets'));
      writeFileSync(
        join(web, 'index.html'),
        '<!doctype html><title>toolseam</title><script type="module" src="/assets/app.js"></script>',
      );
      writeFileSync(join(web, 'assets', 'app.js'), 'export {};');
      const page = await served.api('/');
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await page.text()).toContain('<title>toolseam</title>');
      const script = await served.api('/assets/app.js');
      expect(script.headers.get('content-type')).toContain('javascript');
      await expectError(await served.api('/assets/missing.js'), 404, 'not_found');
      expect((await served.api('/assets/../../etc/passwd')).status).toBe(404);
    } finally {
      rmSync(web, { recursive: true, force: true });
    }
  });
});
