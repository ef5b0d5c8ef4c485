import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/core/model.js';
import { MessageForms } from '../../../src/providers/shared/message-forms.js';

/** A form that shows the ids a message travelled with. */
const formOf = (message: ChatMessage, idOf: (id: string) => string): { readonly ids: string[] } => ({
  ids:
    message.role === 'tool'
      ? [idOf(message.toolCallId)]
      : message.role === 'assistant'
        ? (message.toolCalls ?? []).map((c) => idOf(c.id))
        : [],
});

const history: ChatMessage[] = [
  Object.freeze({ role: 'user', content: 'time?' }),
  Object.freeze({
    role: 'assistant',
    content: '',
    toolCalls: Object.freeze([Object.freeze({ id: 'call_1', name: 'get_time', arguments: '{}' })]),
  }),
  Object.freeze({ role: 'tool', toolCallId: 'call_1', name: 'get_time', content: 'noon', isError: false }),
];

describe('MessageForms.list', () => {
  it('takes a head only for the id pattern it was listed with', () => {
    const forms = new MessageForms((m, idOf) => formOf(m, idOf));
    let mapped = 0;
    const renamed = () => {
      mapped += 1;
      return (id: string) => `mapped_${id}`;
    };
    const lower = /^[a-z_0-9]+$/;
    expect(forms.list(history, undefined, lower, renamed).map((f) => f.ids)).toEqual([
      [],
      ['call_1'],
      ['call_1'],
    ]);
    expect(mapped).toBe(0);
    // The same history under a pattern its ids do not fit: mapped, not taken from the head.
    const upper = /^[A-Z]+$/;
    expect(forms.list(history, undefined, upper, renamed).map((f) => f.ids)).toEqual([
      [],
      ['mapped_call_1'],
      ['mapped_call_1'],
    ]);
    expect(mapped).toBe(1);
    expect(forms.list(history, undefined, lower, renamed).map((f) => f.ids)).toEqual([
      [],
      ['call_1'],
      ['call_1'],
    ]);
  });
});
