import { afterEach, describe, expect, it } from 'vitest';
import { createModelAdapter } from '../../src/providers/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { startServer } from '../../src/server/start-server.js';
import { openSessionStore } from '../../src/store/index.js';
import { type ReadEvent, readEvents } from '../../src/testing/event-stream-reader.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { apiCall, expectJson, expectSchema, type Served, startServed } from './served.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function served(options: Parameters<typeof startServed>[0]): Promise<Served> {
  const s = await startServed(options);
  closers.push(() => s.close());
  return s;
}

const email = { toolCalls: [{ name: 'send_email', arguments: { to: 'ann@example.com', body: 'hi' } }] };

async function newSession(s: Served): Promise<string> {
  return (await expectJson<{ id: string }>(await s.api('/api/sessions', { json: {} }), 201, 'Session')).id;
}

/** Every event of the session as the store replays it from the start. */
async function replay(s: Served, id: string, stopAtEnd = true): Promise<ReadEvent[]> {
  const response = await s.api(`/api/sessions/${id}/events`);
  return readEvents(response, (e) => stopAtEnd && e.event === 'turn-end');
}

const key = (e: ReadEvent) => `${e.id}:${e.event}`;

describe('event streams', () => {
  it('resumes after a dropped connection with Last-Event-ID: the exact sequence, no gap, no duplicate', async () => {
    const counts: RunCounts = new Map();
    const s = await served({
      script: [email, { text: 'The mail went out to Ann.' }],
      providers: [demoProvider(counts)],
    });
    const id = await newSession(s);
    const live = s.api(`/api/sessions/${id}/events`);
    await expectJson(
      await s.api(`/api/sessions/${id}/messages`, { json: { text: 'mail Ann' } }),
      202,
      'TurnStarted',
    );
    // The first connection drops after the turn's first event; the turn goes on meanwhile.
    const first = await readEvents(await live, (e) => e.event === 'turn-start');
    const lastSeen = String(first.at(-1)?.id);
    // The reconnect reads what it missed from the store, then goes on live: the approval is answered
    // only once it has been read, so what follows comes live.
    let answered = false;
    const rest = await readEvents(
      await s.api(`/api/sessions/${id}/events`, { headers: { 'last-event-id': lastSeen } }),
      (e) => {
        if (e.event === 'approval-request' && !answered) {
          answered = true;
          const request = e.data.request as { id: string };
          void s.api(`/api/approvals/${request.id}`, { json: { decision: 'approve' } });
        }
        return e.event === 'turn-end';
      },
    );
    const whole = await replay(s, id);
    expect([...first, ...rest].map(key)).toEqual(whole.map(key));
    expect(whole.map((e) => e.event)).toEqual([
      'turn-start',
      'approval-request',
      'approval-resolved',
      'tool-call-start',
      'tool-call-end',
      ...whole.filter((e) => e.event === 'text-delta').map(() => 'text-delta'),
      'turn-end',
    ]);
    expect(rest[0]?.id).toBeGreaterThan(Number(lastSeen));
    expect(counts.get('send_email')).toBe(1);
    for (const e of whole) expectSchema('StreamEvent', e.data);
    // ?after= does what the header does
    const after = await readEvents(
      await s.api(`/api/sessions/${id}/events?after=${lastSeen}`),
      (e) => e.event === 'turn-end',
    );
    expect(after.map(key)).toEqual(rest.map(key));
  });

  it('sends two subscribers of one session the same events, and an approval answered disappears for both', async () => {
    const s = await served({ script: [email, { text: 'Sent.' }], providers: [demoProvider()] });
    const id = await newSession(s);
    const one = s.api(`/api/sessions/${id}/events`);
    const two = s.api(`/api/sessions/${id}/events`);
    const [r1, r2] = await Promise.all([one, two]);
    await s.api(`/api/sessions/${id}/messages`, { json: { text: 'mail Ann' } });
    const reading = [
      readEvents(r1, (e) => e.event === 'turn-end'),
      readEvents(r2, (e) => e.event === 'turn-end'),
    ];
    let pending: { id: string }[] = [];
    while (pending.length === 0) {
      pending = (
        await expectJson<{ approvals: { id: string }[] }>(
          await s.api(`/api/approvals?sessionId=${id}`),
          200,
          'ApprovalList',
        )
      ).approvals;
    }
    await s.api(`/api/approvals/${pending[0]?.id}`, { json: { decision: 'approve' } });
    const [a, b] = await Promise.all(reading);
    expect(a?.map(key)).toEqual(b?.map(key));
    expect(a?.some((e) => e.event === 'approval-resolved')).toBe(true);
    expect(
      (await expectJson<{ approvals: unknown[] }>(await s.api('/api/approvals'), 200, 'ApprovalList'))
        .approvals,
    ).toEqual([]);
  });

  it('streams a turn that another server process on the same store runs, read from the store', async () => {
    const a = await served({
      script: [{ text: 'From the other process, in several pieces.', chunkSize: 4 }],
      pollMs: 50,
    });
    // A second runtime and server on the same database file, as a second process would open it.
    const store = openSessionStore({ path: a.dbPath });
    const model = createModelAdapter({
      ...a.standIn.modelConfig('stand-in-model'),
      retry: { maxRetries: 0 },
    } as never);
    const runtime = new Runtime({ model, registry: createToolRegistry(), store, workspace: [a.dir] });
    const b = await startServer({ runtime, port: 0, version: 'test', pollMs: 50 });
    closers.push(() => b.close());
    const bBase = `http://127.0.0.1:${b.port}`;
    const id = await newSession(a);
    const onB = apiCall(bBase, `/api/sessions/${id}/events`);
    const response = await onB;
    await a.api(`/api/sessions/${id}/messages`, { json: { text: 'go' } });
    const seen = await readEvents(response, (e) => e.event === 'turn-end');
    expect(seen.map(key)).toEqual((await replay(a, id)).map(key));
    expect(
      seen
        .filter((e) => e.event === 'text-delta')
        .map((e) => e.data.text)
        .join(''),
    ).toBe('From the other process, in several pieces.');
  });

  it('sends a keep-alive comment while a stream is silent', async () => {
    const s = await served({ keepAliveMs: 60 });
    const id = await newSession(s);
    const seen = { comments: 0, stopAfterComments: 3 };
    await readEvents(await s.api(`/api/sessions/${id}/events`), () => false, seen);
    expect(seen.comments).toBe(3); // ": open", then two keep-alives
  });

  it('goes on with a turn whose POST stream the client left, and replays it from the store', async () => {
    const s = await served({ script: [{ text: 'an answer nobody waited for', delayMs: 200 }] });
    const id = await newSession(s);
    const response = await s.api(`/api/sessions/${id}/messages`, {
      json: { text: 'hi' },
      headers: { accept: 'text/event-stream' },
    });
    await response.body?.cancel(); // the client leaves at once
    const events = await replay(s, id);
    expect(events.at(-1)?.data).toMatchObject({ status: 'done', message: 'an answer nobody waited for' });
  });

  it('stops a running turn through the API', async () => {
    const s = await served({ script: [email, { text: 'never' }], providers: [demoProvider()] });
    const id = await newSession(s);
    const response = await s.api(`/api/sessions/${id}/messages`, {
      json: { text: 'mail' },
      headers: { accept: 'text/event-stream' },
    });
    const events = await readEvents(response, (e) => {
      if (e.event === 'approval-request') void s.api(`/api/sessions/${id}/stop`, { method: 'POST' });
      return e.event === 'turn-end';
    });
    expect(events.at(-1)?.data.status).toBe('stopped');
    const res = await s.api(`/api/sessions/${id}/stop`, { method: 'POST' });
    expect(res.status).toBe(409);
  });
});
