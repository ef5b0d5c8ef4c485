import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/core/errors.js';
import { createModelAdapter, type ProviderConfig } from '../../../src/providers/index.js';
import { ask, failure } from '../../support/provider-harness.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

/** A server that answers every request 304 Not Modified (fetch passes it on: it is not a redirect). */
async function notModified(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = createServer((_req, res) => {
    requests += 1;
    res.writeHead(304, { etag: '"v1"' }).end();
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

describe('an error answer that can carry no body (304)', () => {
  it.each([
    [
      'openai-compatible',
      (url: string): ProviderConfig => ({
        provider: 'openai-compatible',
        model: 'm',
        baseURL: `${url}/v1`,
        env: {},
      }),
    ],
    [
      'anthropic',
      (url: string): ProviderConfig => ({
        provider: 'anthropic',
        model: 'm',
        apiKey: 'k',
        baseURL: url,
        env: {},
      }),
    ],
  ] as const)(
    'from %s is told as that status, once, not as a lost connection tried again',
    async (name, config) => {
      const { url, requests } = await notModified();
      const error = await failure(createModelAdapter(config(url)).stream(ask('hi')));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ status: 304, retryable: false });
      expect((error as Error).message).toBe(`${name} answered HTTP 304 with an empty body.`);
      expect(requests()).toBe(1);
    },
  );
});
