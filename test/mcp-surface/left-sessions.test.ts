import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { endLeftCallSessions, servingModel } from '../../src/mcp-surface/index.js';
import { servingRuntime } from './serve-harness.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('connections an mcp-serve process left when it died', () => {
  it('are ended with their questions closed; a chat turn left the same way is not touched', async () => {
    const serving = await servingRuntime();
    closers.push(() => serving.close());
    const store = serving.runtime.options.store;
    // a pid above Linux's largest: that process is gone
    const dead = `${hostname()}:4194305/0badc0de`;
    const left = async (provider: string, model: string) => {
      const session = await store.createSession({ provider, model });
      return store.startTurn({ sessionId: session.id, userText: 'x', owner: dead, provider, model });
    };
    const served = await left(servingModel.provider, servingModel.model);
    const chat = await left('openai', 'gpt-4.1-mini');
    const [call] = (
      await store.recordModelReply(served.id, {
        content: '',
        calls: [
          {
            id: 'c1',
            wireName: 'send_email',
            tool: 'send_email',
            rawArguments: '{}',
            digest: 'd',
            arguments: {},
          },
        ],
      })
    ).calls;
    const question = await store.requestApproval({
      turnId: served.id,
      callId: call?.id as string,
      risk: 'caution',
      meaning: 'Approving sends it.',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });

    expect(await endLeftCallSessions(serving.runtime)).toBe(1);
    expect((await store.getTurn(served.id))?.status).toBe('interrupted');
    expect((await store.getApproval(question.id))?.status).toBe('cancelled');
    expect((await store.getToolCall(served.id, 'c1'))?.status).not.toBe('pending');
    expect((await store.getTurn(chat.id))?.status).toBe('running');
    expect(await endLeftCallSessions(serving.runtime)).toBe(0);
  });
});
