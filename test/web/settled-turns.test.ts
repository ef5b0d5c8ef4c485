import { describe, expect, it } from 'vitest';
import type { Message } from '../../web/src/api-types.js';
import { settledTurns, withoutLiveTurns } from '../../web/src/settled-turns.js';

const at = '2026-12-06T00:00:00Z';
const messages: Message[] = [
  { role: 'user', text: 'one', turnId: 't1', createdAt: at },
  { role: 'assistant', text: 'first', turnId: 't1', createdAt: at },
  { role: 'user', text: 'two', turnId: 't2', createdAt: at },
  { role: 'assistant', text: '', turnId: 't2', toolCalls: [], createdAt: at },
];

describe('settledTurns', () => {
  it('is every turn the history holds, but the newest while one runs', () => {
    expect(settledTurns(messages, false)).toEqual(['t1', 't2']);
    expect(settledTurns(messages, true)).toEqual(['t1']);
  });
});

describe('withoutLiveTurns', () => {
  it("leaves out a streaming turn's messages but the person's own", () => {
    expect(withoutLiveTurns(messages, new Set(['t2'])).map((m) => m.text)).toEqual(['one', 'first', 'two']);
  });
});
