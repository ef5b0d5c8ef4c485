import { afterEach, describe, expect, it } from 'vitest';
import { readEvents } from '../../src/testing/event-stream-reader.js';
import { demoProvider } from '../support/demo-tools.js';
import { expectError, expectJson, type Served, startServed } from './served.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

interface Row {
  name: string;
  on: boolean;
  fixed: string | null;
  status: string;
}

/** The tool names the stand-in's `n`th request offered. */
function offered(s: Served, n: number): string[] {
  return (s.standIn.requests[n]?.tools ?? []).map((t) => t.name);
}

describe('the Tools page over HTTP', () => {
  it('lists every tool with its switch, and a switch off applies from the next turn', async () => {
    served = await startServed({
      providers: [demoProvider()],
      denyList: [{ tool: 'archive_mail', reason: 'no archiving from here' }],
      script: [{ text: 'one' }, { text: 'two' }],
    });
    const page = await expectJson<{ tools: Row[] }>(await served.api('/api/tools'), 200, 'ToolsPage');
    const byName = new Map(page.tools.map((t) => [t.name, t]));
    expect(byName.get('send_email')).toMatchObject({ on: true, fixed: null });
    expect(byName.get('archive_mail')).toMatchObject({ on: false, fixed: 'denyList' });
    const { id } = await expectJson<{ id: string }>(
      await served.api('/api/sessions', { json: {} }),
      201,
      'Session',
    );
    const say = async (text: string) =>
      readEvents(
        (await served?.api(`/api/sessions/${id}/messages`, {
          json: { text },
          headers: { accept: 'text/event-stream' },
        })) as Response,
        (e) => e.event === 'turn-end',
      );
    await say('first');
    expect(offered(served, 0)).toContain('send_email');
    const row = await expectJson<Row>(
      await served.api('/api/tools/send_email', { method: 'PUT', json: { on: false } }),
      200,
      'ToolRow',
    );
    expect(row).toMatchObject({ name: 'send_email', on: false });
    await say('second');
    expect(offered(served, 1)).not.toContain('send_email');
    await expectError(
      await served.api('/api/tools/archive_mail', { method: 'PUT', json: { on: true } }),
      409,
      'fixed_by_config',
    );
    const unknown = await expectError(
      await served.api('/api/tools/send_emial', { method: 'PUT', json: { on: true } }),
      404,
      'unknown_tool',
    );
    expect(unknown.error.suggestion).toBe('send_email');
    await expectError(
      await served.api('/api/tools/send_email', { method: 'PUT', json: { on: 'yes' } }),
      400,
      'bad_request',
    );
  });
});

describe('deleting a session over HTTP', () => {
  it('deletes a session with its events, and refuses while its turn runs', async () => {
    served = await startServed({
      providers: [demoProvider()],
      script: [
        { toolCalls: [{ name: 'send_email', arguments: { to: 'a@example.com', body: 'x' } }] },
        { text: 'sent' },
      ],
    });
    const { id } = await expectJson<{ id: string }>(
      await served.api('/api/sessions', { json: {} }),
      201,
      'Session',
    );
    const started = await expectJson<{ turnId: string; events: string }>(
      await served.api(`/api/sessions/${id}/messages`, { json: { text: 'mail' } }),
      202,
      'TurnStarted',
    );
    const stream = await served.api(started.events);
    const events = await readEvents(stream, (e) => e.event === 'approval-request');
    await expectError(await served.api(`/api/sessions/${id}`, { method: 'DELETE' }), 409, 'turn_running');
    const request = events.at(-1)?.data.request as { id: string };
    await served.api(`/api/approvals/${request.id}`, { json: { decision: 'deny' } });
    await readEvents(
      await served.api(`${started.events}&after=${events.at(-1)?.id}`),
      (e) => e.event === 'turn-end',
    );
    const deleted = await served.api(`/api/sessions/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    await expectError(await served.api(`/api/sessions/${id}`), 404, 'unknown_session');
    await expectError(await served.api(`/api/sessions/${id}`, { method: 'DELETE' }), 404, 'unknown_session');
    expect(await served.runtime.options.store.listTurnEvents({ sessionId: id })).toEqual([]);
  });
});
