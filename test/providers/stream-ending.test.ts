import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors.js';
import { createModelAdapter, type ProviderConfig } from '../../src/providers/index.js';
import { writeStreamEvent } from '../../src/testing/bedrock-event-stream.js';
import { startEventStream, writeEvent } from '../../src/testing/sse.js';
import { ask, failure, textBeforeFailure } from '../support/provider-harness.js';

/** A server that starts a streamed answer with `first` and then goes quiet, keeping the connection open. */
async function stallingServer(
  first: (res: ServerResponse) => void,
  start: (res: ServerResponse) => void = (res) => startEventStream(res, {}),
): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    start(res);
    first(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const FAMILIES: readonly {
  label: string;
  first: (res: ServerResponse) => void;
  /** Starts the answer's HTTP response (default: an SSE stream). */
  start?: (res: ServerResponse) => void;
  config: (url: string) => ProviderConfig;
}[] = [
  {
    label: 'openai',
    first: (res) =>
      writeEvent(res, {
        id: 'c',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'm',
        choices: [{ index: 0, delta: { content: 'Half' }, finish_reason: null }],
      }),
    config: (url) => ({ provider: 'openai-compatible', model: 'm', baseURL: `${url}/v1`, env: {} }),
  },
  {
    label: 'anthropic',
    first: (res) => {
      const message = { id: 'msg', type: 'message', role: 'assistant', model: 'm', content: [] };
      writeEvent(
        res,
        { type: 'message_start', message: { ...message, usage: { input_tokens: 1 } } },
        'message_start',
      );
      const block = { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'Half' } };
      writeEvent(res, block, 'content_block_start');
    },
    config: (url) => ({ provider: 'anthropic', model: 'm', apiKey: 'k', baseURL: url, env: {} }),
  },
  {
    label: 'bedrock',
    start: (res) => res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' }),
    first: (res) => {
      writeStreamEvent(res, 'messageStart', { role: 'assistant' });
      writeStreamEvent(res, 'contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Half' } });
    },
    config: (url) => ({
      provider: 'bedrock',
      model: 'm',
      region: 'us-east-1',
      baseURL: url,
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      env: {},
    }),
  },
];

describe('a stream the caller stops midway', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  for (const family of FAMILIES) {
    it(`${family.label}: reads as cancelled, not as a stream cut short`, async () => {
      const started = await stallingServer(family.first, family.start);
      server = started.server;
      const adapter = createModelAdapter({ ...family.config(started.url), retry: { maxRetries: 2 } });
      const controller = new AbortController();
      let caught: unknown;
      try {
        for await (const _event of adapter.stream({ ...ask('stop me'), signal: controller.signal }))
          controller.abort();
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ProviderError);
      expect((caught as ProviderError).providerCode).toBe('aborted');
    });
  }
});

describe('a stream that goes silent midway', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.closeAllConnections();
    server?.close();
  });

  it('bedrock: fails as not answering in time once it has been silent for timeoutMs, instead of waiting forever', async () => {
    const bedrock = FAMILIES.find((f) => f.label === 'bedrock');
    if (!bedrock) throw new Error('no bedrock family');
    const started = await stallingServer(bedrock.first, bedrock.start);
    server = started.server;
    const adapter = createModelAdapter({
      ...bedrock.config(started.url),
      timeoutMs: 300,
      retry: { maxRetries: 0 },
    });
    const { text, error: caught } = await textBeforeFailure(adapter.stream(ask('then silence')));
    expect(text).toBe('Half');
    expect(caught).toBeInstanceOf(ProviderError);
    expect((caught as ProviderError).providerCode).toBe('timeout');
  });
});

describe('a connection that cannot be made', () => {
  for (const family of FAMILIES) {
    it(`${family.label}: says why in the words of the socket, not just "Connection error."`, async () => {
      // a port that was just free: nothing listens there now
      const { server: closed, url } = await stallingServer(() => undefined);
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const adapter = createModelAdapter({ ...family.config(url), retry: { maxRetries: 0 } });
      const error = (await failure(adapter.stream(ask('anyone?')))) as ProviderError;
      expect(error.providerCode).toBe('connection');
      expect(error.message).toContain(`(connect ECONNREFUSED ${new URL(url).host})`);
    });
  }
});
