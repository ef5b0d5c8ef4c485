import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { StoreConflictError, StoreNotFoundError } from '../../../src/core/store-errors.js';
import { newCall, turnWithCalls } from '../record-fixtures.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Tool calls: recorded with their reply atomically, claimed exactly once, settled once. */
export function toolCallCases(subject: StoreSubject): void {
  describe('tool calls', () => {
    it('records the assistant message and its calls together, in order', async () => {
      const store = await subject.open();
      const { session, turn, reply } = await turnWithCalls(store, [
        newCall('c1', 'mcp/notes/find', { q: 'tax' }),
        newCall('c2', 'read_file', { path: 'a.txt' }, { status: 'approved' }),
      ]);
      expect(reply.message.message).toEqual({
        role: 'assistant',
        content: 'On it.',
        toolCalls: [
          { id: 'c1', name: 'mcp__notes__find', arguments: '{"q":"tax"}' },
          { id: 'c2', name: 'read_file', arguments: '{"path":"a.txt"}' },
        ],
      });
      expect(reply.calls.map((c) => [c.id, c.index, c.status])).toEqual([
        ['c1', 0, 'pending'],
        ['c2', 1, 'approved'],
      ]);
      const stored = await store.getToolCall(turn.id, 'c1');
      expect(stored).toEqual(reply.calls[0]);
      expect(stored).toMatchObject({
        sessionId: session.id,
        tool: 'mcp/notes/find',
        wireName: 'mcp__notes__find',
        rawArguments: '{"q":"tax"}',
        arguments: { q: 'tax' },
      });
      expect((await store.listToolCalls({ turnId: turn.id, status: 'approved' })).map((c) => c.id)).toEqual([
        'c2',
      ]);
      expect((await store.listToolCalls({ sessionId: session.id })).map((c) => c.id)).toEqual(['c1', 'c2']);
    });

    it('lists calls in the order the model asked for them, even when the clock stepped back between replies', async () => {
      let clock = Date.parse('2030-01-01T00:10:00.000Z');
      const store = await subject.open({ now: () => clock });
      const { turn } = await turnWithCalls(store, [newCall('first', 'read_file', { path: 'a' })]);
      clock -= 60_000;
      await store.recordModelReply(turn.id, {
        content: '',
        calls: [newCall('second', 'read_file', { path: 'b' })],
      });
      await store.recordModelReply(turn.id, {
        content: '',
        calls: [newCall('third', 'read_file', { path: 'c' })],
      });
      expect((await store.listToolCalls({ turnId: turn.id })).map((c) => `${c.index}:${c.id}`)).toEqual([
        '0:first',
        '1:second',
        '2:third',
      ]);
    });

    it('keeps a call whose arguments could not be read, without parsed arguments', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, [
        { id: 'bad', tool: 'grep', wireName: 'grep', rawArguments: '{"pattern": ', digest: 'd-raw' },
      ]);
      const call = await store.getToolCall(turn.id, 'bad');
      expect(call?.arguments).toBeUndefined();
      expect(call?.rawArguments).toBe('{"pattern": ');
    });

    it('writes nothing when one call of a reply is invalid (the reply is atomic)', async () => {
      const store = await subject.open();
      const { session, turn } = await turnWithCalls(store, []);
      const before = (await store.listMessages(session.id)).length;
      await expect(
        store.recordModelReply(turn.id, {
          content: 'twice',
          calls: [newCall('same', 'grep', { p: 1 }), newCall('same', 'grep', { p: 2 })],
        }),
      ).rejects.toThrow(/unique in a turn/);
      expect(await store.listMessages(session.id)).toHaveLength(before);
      expect(await store.listToolCalls({ turnId: turn.id })).toEqual([]);
      await expect(store.recordModelReply('missing', { content: '' })).rejects.toThrow(StoreNotFoundError);
      await expect(
        store.recordModelReply(turn.id, { content: '', calls: [newCall('x', 'grep', {}, { digest: '' })] }),
      ).rejects.toThrow(InputError);
    });

    it('refuses arguments nested too deep to write, naming the call, and stores nothing of the reply', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, []);
      const deep = JSON.parse(`{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`) as Record<string, never>;
      const before = (await store.listToolCalls({ turnId: turn.id })).length;
      const call = { ...newCall('d', 'grep', {}), rawArguments: '{"a":[[…]]}', arguments: deep };
      await expect(store.recordModelReply(turn.id, { content: '', calls: [call] })).rejects.toThrow(
        /The arguments of call d cannot be stored: the value holds more than 100 levels/,
      );
      expect(await store.listToolCalls({ turnId: turn.id })).toHaveLength(before);
    });

    it('runs a call through approve → claim → done, and adds the tool to the session', async () => {
      const store = await subject.open();
      const { session, turn } = await turnWithCalls(store, [newCall('c1', 'read_file', { path: 'a' })]);
      expect(await store.claimToolCall(turn.id, 'c1')).toBe(false); // not approved yet
      expect(await store.approveToolCall(turn.id, 'c1')).toBe(true);
      expect(await store.approveToolCall(turn.id, 'c1')).toBe(false);
      expect(await store.claimToolCall(turn.id, 'c1', 'host:1')).toBe(true);
      expect(await store.claimToolCall(turn.id, 'c1', 'host:2')).toBe(false);
      expect(await store.getToolCall(turn.id, 'c1')).toMatchObject({
        status: 'running',
        claimedBy: 'host:1',
      });

      const { call, message } = await store.recordToolResult(turn.id, 'c1', {
        status: 'done',
        content: 'hello',
        isError: false,
      });
      expect(call).toMatchObject({ status: 'done', result: 'hello', isError: false });
      expect(message.message).toEqual({
        role: 'tool',
        toolCallId: 'c1',
        name: 'read_file',
        content: 'hello',
        isError: false,
      });
      expect(message.tool).toBe('read_file');
      expect((await store.getSession(session.id))?.toolsUsed).toEqual(['read_file']);
      await expect(store.claimToolCall(turn.id, 'nope')).rejects.toThrow(StoreNotFoundError);
    });

    it('stores a final answer with its turn marked done when the reply ends the turn', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, []);
      const answer = await store.recordModelReply(turn.id, { content: 'All tidy.', endsTurn: true });
      expect(answer.message.message).toEqual({ role: 'assistant', content: 'All tidy.' });
      expect(await store.getTurn(turn.id)).toMatchObject({ status: 'done' });
      expect((await store.getTurn(turn.id))?.endedAt).toBeDefined();
      // A turn already ended is not moved again.
      expect(await store.setTurnStatus(turn.id, 'done')).toBe(false);
    });

    it('keeps the token counts a reply came with, in the same write as the reply', async () => {
      const store = await subject.open();
      const { session, turn } = await turnWithCalls(store, []);
      const usage = { inputTokens: 120, outputTokens: 8, requestChars: 450 };
      await store.recordModelReply(turn.id, { content: 'Done.', endsTurn: true, usage });
      expect(await store.listUsage(session.id)).toEqual([
        { ...usage, sessionId: session.id, turnId: turn.id, createdAt: expect.any(String) },
      ]);
      // a reply the store refuses keeps none of its counts either
      const next = await store.startTurn({ sessionId: session.id, userText: 'again' });
      await expect(
        store.recordModelReply(next.id, {
          content: '',
          calls: [newCall('c9', 'read_file', { path: 'z' })],
          endsTurn: true,
          usage: { inputTokens: 5, outputTokens: 1, requestChars: 20 },
        }),
      ).rejects.toThrow(InputError);
      expect(await store.listUsage(session.id)).toHaveLength(1);
    });

    it('refuses to end a turn with a reply that still has calls, and stores nothing of it', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, []);
      const before = (await store.listMessages(turn.sessionId)).length;
      await expect(
        store.recordModelReply(turn.id, {
          content: 'One more thing.',
          calls: [newCall('c9', 'read_file', { path: 'z' })],
          endsTurn: true,
        }),
      ).rejects.toThrow(InputError);
      expect(await store.listMessages(turn.sessionId)).toHaveLength(before);
      expect(await store.getTurn(turn.id)).toMatchObject({ status: 'running' });
    });

    it('approves and claims a pending call in one step when asked to, and still only once', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, [
        newCall('c1', 'read_file', { path: 'a' }),
        newCall('c2', 'read_file', { path: 'b' }, { status: 'approved' }),
        newCall('c3', 'read_file', { path: 'c' }),
      ]);
      const approving = { approving: true } as const;
      expect(await store.claimToolCall(turn.id, 'c1', 'host:1', approving)).toBe(true);
      expect(await store.claimToolCall(turn.id, 'c1', 'host:2', approving)).toBe(false);
      expect(await store.getToolCall(turn.id, 'c1')).toMatchObject({
        status: 'running',
        claimedBy: 'host:1',
      });
      expect(await store.claimToolCall(turn.id, 'c2', undefined, approving)).toBe(true);
      await store.recordToolResult(turn.id, 'c3', { status: 'refused', content: 'no', isError: true });
      expect(await store.claimToolCall(turn.id, 'c3', undefined, approving)).toBe(false);
      expect((await store.getToolCall(turn.id, 'c3'))?.status).toBe('refused');
      await expect(store.claimToolCall(turn.id, 'nope', undefined, approving)).rejects.toThrow(
        StoreNotFoundError,
      );
    });

    it('records refusals with their markers and never lets a settled call change again', async () => {
      const store = await subject.open();
      const { session, turn } = await turnWithCalls(store, [
        newCall('c1', 'bash', { cmd: 'rm -rf /' }),
        newCall('c2', 'write_file', { path: 'x' }),
      ]);
      const refused = await store.recordToolResult(turn.id, 'c1', {
        status: 'refused',
        content: 'Error: blocked by a security policy',
        isError: true,
        refusedBy: 'deny_list',
      });
      expect(refused.call).toMatchObject({ status: 'refused', refusedBy: 'deny_list', isError: true });
      const failed = await store.recordToolResult(turn.id, 'c2', {
        status: 'failed',
        content: 'write_file was not run: missing content',
        isError: true,
        notRun: 'missing_arguments',
        refusedBy: 'preflight',
      });
      expect(failed.call).toMatchObject({ notRun: 'missing_arguments', refusedBy: 'preflight' });
      expect((await store.getSession(session.id))?.toolsUsed).toEqual([]);

      const again = () =>
        store.recordToolResult(turn.id, 'c1', { status: 'failed', content: 'x', isError: true });
      await expect(again()).rejects.toThrow(StoreConflictError);
      await expect(again()).rejects.toThrow(/is refused, so it cannot become failed/);
      const messagesBefore = (await store.listMessages(session.id)).length;
      await expect(
        store.recordToolResult(turn.id, 'c2', { status: 'done', content: 'x', isError: false }),
      ).rejects.toThrow(StoreConflictError);
      expect(await store.listMessages(session.id)).toHaveLength(messagesBefore);
    });

    it('refuses "done" for a call that was never claimed', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, [
        newCall('c1', 'grep', { p: 'x' }, { status: 'approved' }),
      ]);
      await expect(
        store.recordToolResult(turn.id, 'c1', { status: 'done', content: 'x', isError: false }),
      ).rejects.toThrow(/is approved, so it cannot become done/);
    });

    it('lets a run lost in a crash be settled as failed', async () => {
      const store = await subject.open();
      const { turn } = await turnWithCalls(store, [
        newCall('c1', 'grep', { p: 'x' }, { status: 'approved' }),
      ]);
      await store.claimToolCall(turn.id, 'c1', 'dead-process');
      const lost = await store.listToolCalls({ status: 'running' });
      expect(lost.map((c) => c.id)).toEqual(['c1']);
      const { call } = await store.recordToolResult(turn.id, 'c1', {
        status: 'failed',
        content: 'The run was interrupted; it may or may not have finished.',
        isError: true,
      });
      expect(call.status).toBe('failed');
    });
  });

  describe('tool calls from two connections', () => {
    it('two connections claiming one call at once: exactly one wins, and the call names it', async () => {
      const a = await subject.open();
      const b = await subject.reopen(a);
      const { turn } = await turnWithCalls(a, [
        newCall('c1', 'bash', { cmd: 'date' }, { status: 'approved' }),
      ]);
      const results = await Promise.all([
        b.claimToolCall(turn.id, 'c1', 'b'),
        a.claimToolCall(turn.id, 'c1', 'a'),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? 'b' : 'a';
      expect((await a.getToolCall(turn.id, 'c1'))?.claimedBy).toBe(winner);
      expect(await b.claimToolCall(turn.id, 'c1', 'b')).toBe(false);
    });
  });
}
