import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/runtime/runtime.js';
import { loopbackHosts } from '../../src/server/access.js';
import { createApp } from '../../src/server/create-app.js';
import { OPENAPI_DOCUMENT } from '../../src/server/openapi-document.js';
import { People } from '../../src/server/people.js';
import type { ServerDeps } from '../../src/server/server-deps.js';
import { TurnHub } from '../../src/server/turn-hub.js';
import { readEvents } from '../../src/testing/event-stream-reader.js';
import { type RuntimeHarness, startHarness } from '../support/runtime-harness.js';
import { expectSchema, startServed } from './served.js';

let harness: RuntimeHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The app on `runtime`, on loopback port 1 (requests name Host 127.0.0.1:1), answered in process. */
function appOn(runtime: Runtime, stopping: boolean) {
  const deps: ServerDeps = {
    runtime,
    hub: new TurnHub({ store: runtime.options.store, logger: runtime.logger, signals: runtime.signals }),
    access: { loopback: true, hosts: loopbackHosts(1), people: new People(runtime.options.store) },
    version: 'test',
    state: { stopping },
  };
  return createApp(deps);
}

describe('a server that is stopping', () => {
  it('answers health with 503 "stopping" and refuses new turns with 503 shutting_down', async () => {
    harness = await startHarness({ script: [{ text: 'never sent' }] });
    const { runtime } = harness;
    const app = appOn(runtime, true);
    const headers = { host: '127.0.0.1:1', 'content-type': 'application/json' };
    const health = await app.request('/api/health', { headers });
    expect(health.status).toBe(503);
    const body = (await health.json()) as { status: string };
    expectSchema('Health', body);
    expect(body.status).toBe('stopping');
    const session = await runtime.session();
    const sent = await app.request(`/api/sessions/${session.id}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(sent.status).toBe(503);
    const refused = (await sent.json()) as { error: { code: string } };
    expectSchema('Error', refused);
    expect(refused.error.code).toBe('shutting_down');
    expect(await runtime.options.store.listTurns({ sessionId: session.id })).toEqual([]);
  });
});

describe('shutting down', () => {
  it('stops a running turn at its safe point, records it, ends the streams and closes the port', async () => {
    const s = await startServed({ script: [{ text: 'never comes', delayMs: 60_000 }] });
    try {
      const { id } = (await (await s.api('/api/sessions', { json: {} })).json()) as { id: string };
      const started = (await (
        await s.api(`/api/sessions/${id}/messages`, { json: { text: 'hi' } })
      ).json()) as {
        turnId: string;
      };
      const stream = await s.api(`/api/sessions/${id}/events`);
      const reading = readEvents(stream);
      await s.server.shutdown(5_000);
      const events = await reading; // the stream ended with the shutdown
      expect(events.at(-1)?.data).toMatchObject({
        type: 'turn-end',
        status: 'stopped',
        turnId: started.turnId,
      });
      expect((await s.runtime.options.store.getTurn(started.turnId))?.status).toBe('stopped');
      await expect(fetch(`${s.base}/api/health`)).rejects.toThrow();
    } finally {
      await s.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('describes every API route the app answers, and no other', async () => {
    harness = await startHarness();
    const app = appOn(harness.runtime, false);
    const routed = new Set(
      app.routes
        .filter((r) => r.path.startsWith('/api/') && r.path !== '/api/*' && r.method !== 'ALL')
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const described = new Set(
      Object.entries(OPENAPI_DOCUMENT.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((m) => `${m} ${path}`),
      ),
    );
    expect([...routed].sort()).toEqual([...described].sort());
  });
});
