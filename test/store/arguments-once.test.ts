import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { newCall, openTestStore, tempDbPath, turnWithCalls } from './store-fixtures.js';

/** The stored text of every column that holds a call's arguments, read straight from the file. */
function columns(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      calls: db.prepare('SELECT call_id, raw_arguments, arguments, arguments_as_raw FROM tool_calls').all(),
      messages: db.prepare("SELECT tool_calls FROM messages WHERE role = 'assistant'").all(),
      approvals: db.prepare('SELECT arguments FROM approvals').all(),
    };
  } finally {
    db.close();
  }
}

describe("a call's arguments", () => {
  it('are stored once, as the text the model sent, and read back whole everywhere', async () => {
    const path = tempDbPath();
    const store = openTestStore(path);
    const big = 'x'.repeat(50_000);
    const raw = `{"name": "a.txt", "content": "${big}"}`;
    const call = {
      ...newCall('c1', 'save_text', { name: 'a.txt', content: big }),
      rawArguments: raw,
      argumentsAsRaw: true,
    };
    const { session, turn } = await turnWithCalls(store, [call]);
    const approval = await store.requestApproval({
      turnId: turn.id,
      callId: 'c1',
      risk: 'caution',
      meaning: 'saves',
    });

    const stored = columns(path);
    expect(stored.calls).toEqual([
      { call_id: 'c1', raw_arguments: raw, arguments: null, arguments_as_raw: 1 },
    ]);
    expect(stored.messages).toEqual([{ tool_calls: '[{"id":"c1","name":"save_text"}]' }]);
    expect(stored.approvals).toEqual([{ arguments: '' }]);

    expect((await store.getToolCall(turn.id, 'c1'))?.arguments).toEqual({ name: 'a.txt', content: big });
    expect((await store.getApproval(approval.id))?.arguments).toEqual({ name: 'a.txt', content: big });
    expect((await store.listApprovals({ status: 'pending' }))[0]?.arguments).toEqual({
      name: 'a.txt',
      content: big,
    });
    const [, reply] = await store.listMessages(session.id);
    expect(reply?.message).toEqual({
      role: 'assistant',
      content: 'On it.',
      toolCalls: [{ id: 'c1', name: 'save_text', arguments: raw }],
    });
  });

  it('that differ from the text (lifted JSON decoded, nulls filled in) are kept beside it', async () => {
    const path = tempDbPath();
    const store = openTestStore(path);
    const call = { ...newCall('c1', 'save', { doc: { a: 1 } }), rawArguments: '{"doc":"{\\"a\\":1}"}' };
    const { turn } = await turnWithCalls(store, [call]);
    expect(columns(path).calls).toEqual([
      {
        call_id: 'c1',
        raw_arguments: '{"doc":"{\\"a\\":1}"}',
        arguments: '{"doc":{"a":1}}',
        arguments_as_raw: 0,
      },
    ]);
    expect((await store.getToolCall(turn.id, 'c1'))?.arguments).toEqual({ doc: { a: 1 } });
  });
});
