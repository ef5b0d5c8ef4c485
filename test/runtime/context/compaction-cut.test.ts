import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/core/model.js';
import type { StoredMessage } from '../../../src/core/session-records.js';
import { compactionCut } from '../../../src/runtime/context/compaction-cut.js';

function stored(messages: readonly ChatMessage[]): StoredMessage[] {
  return messages.map((message, i) => ({ seq: i + 1, sessionId: 's', turnId: 't', createdAt: '', message }));
}
const user = (content: string): ChatMessage => ({ role: 'user', content });
const calls = (...ids: string[]): ChatMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: ids.map((id) => ({ id, name: 'x', arguments: '{}' })),
});
const result = (id: string): ChatMessage => ({
  role: 'tool',
  toolCallId: id,
  name: 'x',
  content: 'r',
  isError: false,
});
const said = (content: string): ChatMessage => ({ role: 'assistant', content });
const one = () => 1;

describe('where a compaction cuts', () => {
  it('keeps as many recent turns as fit, cutting only where a turn begins', () => {
    const live = stored([
      user('a'),
      calls('1'),
      result('1'),
      said('A'),
      user('b'),
      said('B'),
      user('c'),
      said('C'),
    ]);
    expect(compactionCut(live, 4, one)).toBe(4);
    expect(compactionCut(live, 2, one)).toBe(6);
    // the latest turn is kept however long
    expect(compactionCut(live, 0, one)).toBe(6);
  });

  it('never parts a call from a result written later (a call that waited for approval)', () => {
    // call 1 was answered only after the next turn began: no cut falls between them
    const live = stored([user('a'), calls('1'), user('b'), result('1'), said('B'), user('c'), said('C')]);
    expect(compactionCut(live, 0, one)).toBe(5);
    const waiting = stored([user('a'), said('A'), user('b'), calls('2'), user('c')]);
    expect(compactionCut(waiting, 0, one)).toBe(2);
  });

  it('has nothing to cut in a conversation of one turn', () => {
    expect(compactionCut(stored([user('a'), calls('1'), result('1'), said('A')]), 0, one)).toBeUndefined();
  });
});
