import { describe, expect, it } from 'vitest';
import type { Approval } from '../../web/src/api-types.js';
import { type ChatAction, type ChatState, chatReducer, initialChatState } from '../../web/src/chat-state.js';
import { parseStreamEvent, type StreamEvent } from '../../web/src/stream-event.js';

let nextId = 0;
const ev = (event: Record<string, unknown>): ChatAction => ({
  type: 'event',
  event: { turnId: 't1', sessionId: 's1', id: String(++nextId), ...event } as StreamEvent,
});
const run = (...actions: ChatAction[]): ChatState => actions.reduce(chatReducer, initialChatState());

const request: Approval = {
  id: 'a1',
  sessionId: 's1',
  turnId: 't1',
  callId: 'c1',
  tool: 'write_file',
  arguments: { path: '/tmp/x' },
  risk: 'high',
  meaning: 'writes /tmp/x',
  createdAt: '2026-12-06T00:00:00Z',
};

describe('chat reducer', () => {
  it('joins streamed text of one turn into one assistant entry', () => {
    const state = run(
      ev({ type: 'turn-start' }),
      ev({ type: 'text-delta', text: 'Hel' }),
      ev({ type: 'text-delta', text: 'lo' }),
    );
    expect(state.running).toBe(true);
    expect(state.entries).toEqual([
      expect.objectContaining({ kind: 'text', role: 'assistant', text: 'Hello' }),
    ]);
  });

  it('starts a new text entry after a tool call', () => {
    const state = run(
      ev({ type: 'text-delta', text: 'a' }),
      ev({ type: 'tool-call-start', callId: 'c1', tool: 'echo', arguments: { x: 1 } }),
      ev({ type: 'tool-call-end', callId: 'c1', tool: 'echo', isError: false, content: 'ok' }),
      ev({ type: 'text-delta', text: 'b' }),
    );
    expect(state.entries.map((e) => e.kind)).toEqual(['text', 'tool', 'text']);
    expect(state.entries[1]).toMatchObject({ state: 'done', content: 'ok', arguments: { x: 1 } });
  });

  it('marks a refused call with the reason a person reads', () => {
    const state = run(
      ev({ type: 'tool-call-start', callId: 'c1', tool: 'rm', arguments: {} }),
      ev({
        type: 'tool-call-end',
        callId: 'c1',
        tool: 'rm',
        isError: true,
        content: 'refused',
        refusedBy: 'deny_list',
        reason: 'the config denies rm',
      }),
    );
    expect(state.entries[0]).toMatchObject({
      state: 'refused',
      reason: 'the config denies rm',
      refusedBy: 'deny_list',
    });
  });

  it('keeps why a call was refused once its turn is read back from the history', () => {
    const state = run(
      ev({
        type: 'tool-call-end',
        callId: 'c1',
        tool: 'rm',
        isError: true,
        content: 'no',
        refusedBy: 'deny_list',
        reason: 'denied by the config',
      }),
      ev({ type: 'tool-call-end', callId: 'c2', tool: 'ls', isError: false, content: 'a' }),
      { type: 'read-back', turnIds: ['t1'], messages: 3 },
    );
    expect(state.refusals).toEqual({ c1: { reason: 'denied by the config', refusedBy: 'deny_list' } });
  });

  it('shows a call refused before it started', () => {
    const state = run(
      ev({
        type: 'tool-call-end',
        callId: 'c9',
        tool: 'x',
        isError: true,
        content: 'no',
        notRun: 'missing_arguments',
      }),
    );
    expect(state.entries[0]).toMatchObject({ kind: 'tool', callId: 'c9', state: 'refused' });
  });

  it('adds an approval card on a request and takes it away when it is resolved anywhere', () => {
    const asked = run(
      ev({ type: 'tool-call-start', callId: 'c1', tool: 'write_file', arguments: {} }),
      ev({ type: 'approval-request', request }),
    );
    expect(asked.approvals.map((a) => a.id)).toEqual(['a1']);
    const resolved = chatReducer(
      asked,
      ev({ type: 'approval-resolved', approvalId: 'a1', decision: { kind: 'approve' } }),
    );
    expect(resolved.approvals).toEqual([]);
    // A pending list fetched before the answer does not bring the card back.
    expect(chatReducer(resolved, { type: 'approvals', approvals: [request] }).approvals).toEqual([]);
  });

  it('merges the fetched pending list with requests already streamed', () => {
    const other = { ...request, id: 'a2' };
    const state = run(ev({ type: 'approval-request', request }), {
      type: 'approvals',
      approvals: [request, other],
    });
    expect(state.approvals.map((a) => a.id).sort()).toEqual(['a1', 'a2']);
  });

  it('ignores an event it has already applied (a stream replayed from an earlier id)', () => {
    const first = ev({ type: 'text-delta', text: 'x' });
    const state = run(first, first);
    expect(state.entries[0]).toMatchObject({ text: 'x' });
  });

  it('ends a turn that went wrong with its sentence, kept after the turn is read back', () => {
    const ended = run(
      { type: 'sent', turnId: 't1', text: 'hi' },
      ev({ type: 'text-delta', text: 'partial' }),
      ev({
        type: 'turn-end',
        status: 'rejected',
        message: 'switch it off on the Tools page, then send again',
      }),
    );
    expect(ended.running).toBe(false);
    expect(ended.ended).toEqual(['t1']);
    const readBack = chatReducer(ended, { type: 'read-back', turnIds: ['t1'], messages: 2 });
    expect(readBack.entries).toEqual([]);
    expect(readBack.ended).toEqual([]);
    expect(readBack.anchored).toEqual([
      { at: 2, entry: expect.objectContaining({ text: 'switch it off on the Tools page, then send again' }) },
    ]);
  });

  it("places the person's message before what its turn already streamed, unless the turn was read back", () => {
    const state = run(ev({ type: 'text-delta', text: 'answer' }), {
      type: 'sent',
      turnId: 't1',
      text: 'question',
    });
    expect(state.entries.map((e) => (e.kind === 'text' ? e.role : e.kind))).toEqual(['user', 'assistant']);
    const quick = run(ev({ type: 'turn-end', status: 'done', message: '' }), {
      type: 'read-back',
      turnIds: ['t1'],
      messages: 2,
    });
    expect(chatReducer(quick, { type: 'sent', turnId: 't1', text: 'question' }).entries).toEqual([]);
  });

  it('passes over replayed events of turns the history holds, but not their approvals', () => {
    const settled = run({ type: 'read-back', turnIds: ['t1'], messages: 2 });
    const state = [
      ev({ type: 'text-delta', text: 'old' }),
      ev({ type: 'approval-request', request }),
      ev({ type: 'turn-end', status: 'done', message: '' }),
    ].reduce(chatReducer, settled);
    expect(state.entries).toEqual([]);
    expect(state.ended).toEqual([]);
    expect(state.approvals.map((a) => a.id)).toEqual(['a1']);
    expect(state.lastEventId).toBe(String(nextId));
  });

  it("follows a subagent batch's leaves", () => {
    const leaf = (leafId: string, state: string) =>
      ev({ type: 'leaf', batchId: 'b1', leafId, title: leafId, state });
    const state = run(leaf('l1', 'started'), leaf('l2', 'started'), leaf('l1', 'done'));
    expect(state.batches).toEqual([
      {
        batchId: 'b1',
        turnId: 't1',
        leaves: [
          expect.objectContaining({ leafId: 'l1', state: 'done' }),
          expect.objectContaining({ leafId: 'l2', state: 'started' }),
        ],
      },
    ]);
  });
});

describe('parseStreamEvent', () => {
  it('reads an event with its SSE id', () => {
    expect(parseStreamEvent('{"type":"text-delta","text":"x","turnId":"t"}', '7')).toEqual({
      type: 'text-delta',
      text: 'x',
      turnId: 't',
      id: '7',
    });
  });

  it('leaves out what is not an event the page knows', () => {
    expect(parseStreamEvent('not json', '1')).toBeUndefined();
    expect(parseStreamEvent('{"type":"something-new"}', '1')).toBeUndefined();
    expect(parseStreamEvent('null', '1')).toBeUndefined();
  });
});
