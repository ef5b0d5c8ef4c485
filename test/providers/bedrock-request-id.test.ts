import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProviderError } from '../../src/core/errors.js';
import { createModelAdapter } from '../../src/providers/index.js';
import { writeStreamEvent, writeStreamException } from '../../src/testing/bedrock-event-stream.js';
import { ask, failure } from '../support/provider-harness.js';

// A Bedrock endpoint behind a proxy that drops x-amzn-requestid on its second answer.
let server: Server;
let url = '';
let answered = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      answered += 1;
      const first = answered === 1;
      res.writeHead(200, {
        'content-type': 'application/vnd.amazon.eventstream',
        ...(first ? { 'x-amzn-requestid': 'first-request-id' } : {}),
      });
      writeStreamEvent(res, 'messageStart', { role: 'assistant' });
      if (first) writeStreamException(res, 'throttlingException', 'Too many requests, slow down.');
      else writeStreamException(res, 'validationException', 'The second answer failed.');
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('an in-stream failure of a retry does not carry the request id of the attempt before it', async () => {
  const adapter = createModelAdapter({
    provider: 'bedrock',
    model: 'anthropic.claude-test-v1:0',
    baseURL: url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
    retry: { maxRetries: 1, baseDelayMs: 1 },
    env: {},
  });
  const error = await failure(adapter.stream(ask('twice')));
  expect(answered).toBe(2);
  expect(error).toBeInstanceOf(ProviderError);
  expect((error as ProviderError).message).toContain('The second answer failed.');
  expect((error as ProviderError).requestId).toBeUndefined();
});
