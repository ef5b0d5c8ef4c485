import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { servedBy, serveHttp } from '../../src/mcp-surface/index.js';
import { servingRuntime } from './serve-harness.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** POSTs an initialize request to `url` naming `host` as its Host; resolves with the status. */
function initializeAs(url: string, host: string): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        headers: {
          host,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    sent.once('error', reject);
    sent.end(body);
  });
}

describe('the Streamable HTTP endpoint', () => {
  it('answers a client on its loopback address, and refuses a request naming another host', async () => {
    const serving = await servingRuntime();
    closers.push(() => serving.close());
    const http = await serveHttp(serving.runtime, { port: 0, serves: servedBy(undefined), version: 'test' });
    closers.push(() => http.close());
    const { host } = new URL(http.url);
    expect(await initializeAs(http.url, host)).toBe(200);
    // a page at evil.example whose name was rebound to 127.0.0.1 sends its own name as the Host
    expect(await initializeAs(http.url, `evil.example:${new URL(http.url).port}`)).toBe(403);
    expect(await initializeAs(http.url.replace('/mcp', '/other'), host)).toBe(404);
  });
});
