import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Served, startServed } from './served.js';

describe('a server in a host process', () => {
  const before = { Request: globalThis.Request, Response: globalThis.Response };
  let served: Served;
  beforeAll(async () => {
    served = await startServed();
  });
  afterAll(async () => {
    await served?.close();
  });

  it("leaves the process's own Request and Response in place, and a body without a size is read", async () => {
    // The adaptor's own classes in their place re-serialized what every other fetch in the process read.
    expect(globalThis.Request).toBe(before.Request);
    expect(globalThis.Response).toBe(before.Response);
    const created = await served.api('/api/sessions', { json: {} });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const deleted = await served.api(`/api/sessions/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
  });
});
