import { describe, expect, it } from 'vitest';
import type { Message } from '../../web/src/api-types.js';
import { historyEntries } from '../../web/src/history-entries.js';

const at = '2026-12-06T00:00:00Z';

describe('historyEntries', () => {
  it("joins an assistant's tool calls with their results", () => {
    const messages: Message[] = [
      { role: 'user', text: 'list files', createdAt: at },
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ callId: 'c1', tool: 'ls', arguments: { path: '.' } }],
        createdAt: at,
      },
      { role: 'tool', text: 'a.txt', callId: 'c1', tool: 'ls', createdAt: at },
      { role: 'tool', text: 'boom', callId: 'c2', tool: 'cat', isError: true, createdAt: at },
      { role: 'assistant', text: 'one file', createdAt: at },
    ];
    const entries = historyEntries(messages, []);
    expect(entries.map((e) => e.kind)).toEqual(['text', 'tool', 'tool', 'text']);
    expect(entries[1]).toMatchObject({
      tool: 'ls',
      arguments: { path: '.' },
      state: 'done',
      content: 'a.txt',
    });
    expect(entries[2]).toMatchObject({ tool: 'cat', state: 'failed', content: 'boom' });
  });

  it('marks a stored call the runtime refused, with why', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ callId: 'c1', tool: 'rm', arguments: {} }],
        createdAt: at,
      },
      { role: 'tool', text: 'Error: not run', callId: 'c1', tool: 'rm', isError: true, createdAt: at },
    ];
    const [call] = historyEntries(messages, [], {
      c1: { reason: 'denied by the config', refusedBy: 'deny_list' },
    });
    expect(call).toMatchObject({
      state: 'refused',
      reason: 'denied by the config',
      content: 'Error: not run',
    });
  });

  it('places kept notices after the messages they followed', () => {
    const notice = {
      kind: 'notice',
      key: 'n',
      turnId: 't',
      tone: 'error',
      text: 'failed',
      keep: true,
    } as const;
    const messages: Message[] = [
      { role: 'user', text: 'one', createdAt: at },
      { role: 'user', text: 'two', createdAt: at },
    ];
    const entries = historyEntries(messages, [
      { at: 1, entry: notice },
      { at: 5, entry: { ...notice, key: 'm' } },
    ]);
    expect(entries.map((e) => e.key)).toEqual(['h0', 'n', 'h1', 'm']);
  });
});
