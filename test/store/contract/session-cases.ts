import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { StoreNotFoundError } from '../../../src/core/store-errors.js';
import { newCall, turnWithCalls } from '../record-fixtures.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Sessions, turns (moved only from the states they may leave) and their messages, in order and in pages. */
export function sessionCases(subject: StoreSubject): void {
  describe('sessions', () => {
    it('round-trips a session with every field', async () => {
      const store = await subject.open();
      const made = await store.createSession({
        id: 'chat-1',
        title: 'Trip',
        agent: 'planner',
        provider: 'anthropic',
        model: 'm',
      });
      expect(made).toMatchObject({
        id: 'chat-1',
        title: 'Trip',
        agent: 'planner',
        provider: 'anthropic',
        model: 'm',
      });
      expect(made.toolsUsed).toEqual([]);
      expect(Date.parse(made.createdAt)).not.toBeNaN();
      const changed = await store.updateSession('chat-1', { model: 'm2' });
      expect(changed).toMatchObject({ title: 'Trip', model: 'm2', agent: 'planner' });
      expect(await store.getSession('chat-1')).toEqual(changed);
      expect(await store.getSession('nope')).toBeUndefined();
    });

    it('gives ids when none are asked for and refuses a repeated or blank one', async () => {
      const store = await subject.open();
      const a = await store.createSession();
      const b = await store.createSession();
      expect(a.id).toMatch(/^s-[0-9a-z]{10}$/);
      expect(a.id).not.toBe(b.id);
      await expect(store.createSession({ id: a.id })).rejects.toThrow(/already exists/);
      await expect(store.createSession({ id: '  ' })).rejects.toThrow(InputError);
      await expect(store.updateSession('missing', { title: 'x' })).rejects.toThrow(StoreNotFoundError);
    });

    it('keeps the tools used in first-use order, without repeats', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      await store.addToolsUsed(s.id, ['grep', 'read_file']);
      await store.addToolsUsed(s.id, ['read_file', 'mcp/github/search']);
      expect((await store.getSession(s.id))?.toolsUsed).toEqual(['grep', 'read_file', 'mcp/github/search']);
      await expect(store.addToolsUsed('missing', ['grep'])).rejects.toThrow(StoreNotFoundError);
    });

    it('lists the most recently used session first', async () => {
      let clock = 1_000;
      const store = await subject.open({ now: () => clock++ });
      const old = await store.createSession({ title: 'old' });
      const fresh = await store.createSession({ title: 'fresh' });
      await store.startTurn({ sessionId: old.id, userText: 'back to this one' });
      expect((await store.listSessions()).map((s) => s.id)).toEqual([old.id, fresh.id]);
      expect((await store.listSessions({ limit: 1 })).map((s) => s.id)).toEqual([old.id]);
      await expect(store.listSessions({ limit: 0 })).rejects.toThrow(/limit/);
    });

    it('marks a session used when a turn starts, and by a message only once a second has passed', async () => {
      let clock = 1_000;
      const store = await subject.open({ now: () => clock });
      const s = await store.createSession({ title: 'used' });
      const updated = async () => Date.parse((await store.getSession(s.id))?.updatedAt ?? '');
      clock = 1_200;
      const turn = await store.startTurn({ sessionId: s.id, userText: 'hello' });
      expect(await updated()).toBe(1_200);
      clock = 2_100;
      await store.appendMessage(turn.id, { role: 'assistant', content: 'a moment later' });
      expect(await updated()).toBe(1_200);
      clock = 2_300;
      await store.appendMessage(turn.id, { role: 'assistant', content: 'over a second later' });
      expect(await updated()).toBe(2_300);
      clock = 2_400;
      await store.startTurn({ sessionId: s.id, userText: 'again' });
      expect(await updated()).toBe(2_400);
    });

    it("tells a subagent leaf's child session from one a person started, and lists either kind alone", async () => {
      let clock = 1_000;
      const store = await subject.open({ now: () => clock++ });
      const parent = await store.createSession({ title: 'morning round' });
      const other = await store.createSession({ title: 'other' });
      const leaves = [0, 1, 2].map((i) => ({ title: `Leaf ${i}`, contract: { task: `task ${i}` } }));
      const batch = await store.createBatch({ parentSessionId: parent.id, title: 'Morning', leaves });
      // Two leaves claimed (each in its child session), the third never started.
      const children: string[] = [];
      for (const i of [0, 1]) {
        const child = await store.createSession({ title: `Leaf ${i}` });
        await store.claimLeaf(batch.leaves[i]?.id as string, child.id);
        children.push(child.id);
      }
      const all = await store.listSessions();
      expect(all.map((s) => [s.id, s.parentSessionId, s.childSessions])).toEqual([
        [children[1], parent.id, 0],
        [children[0], parent.id, 0],
        [other.id, undefined, 0],
        [parent.id, undefined, 2],
      ]);
      expect((await store.listSessions({ topLevel: true })).map((s) => s.id)).toEqual([other.id, parent.id]);
      expect((await store.listSessions({ topLevel: true, limit: 1 })).map((s) => s.id)).toEqual([other.id]);
      expect((await store.listSessions({ parentSessionId: parent.id })).map((s) => s.id)).toEqual([
        children[1],
        children[0],
      ]);
      expect(await store.listSessions({ parentSessionId: other.id })).toEqual([]);
      await expect(store.listSessions({ parentSessionId: 3 as never })).rejects.toThrow(InputError);
    });
  });

  describe('turns and messages', () => {
    it('starts a turn with its user message and names an untitled session after it', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      const long =
        'Please find every invoice from last spring and put the totals in a table for my accountant';
      const turn = await store.startTurn({ sessionId: s.id, userText: long, owner: 'host:42' });
      expect(turn).toMatchObject({ sessionId: s.id, status: 'running', userText: long, owner: 'host:42' });
      expect(turn.endedAt).toBeUndefined();
      const title = (await store.getSession(s.id))?.title ?? '';
      expect(title.endsWith('…')).toBe(true);
      expect(title.length).toBeLessThanOrEqual(61);
      expect(long.startsWith(title.slice(0, -1))).toBe(true);
      await store.startTurn({ sessionId: s.id, userText: 'second' });
      expect((await store.getSession(s.id))?.title).toBe(title);
      expect((await store.listMessages(s.id)).map((m) => m.message)).toEqual([
        { role: 'user', content: long },
        { role: 'user', content: 'second' },
      ]);
      await expect(store.startTurn({ sessionId: 'missing', userText: 'x' })).rejects.toThrow(
        StoreNotFoundError,
      );
    });

    it('round-trips every kind of message in order, with wire and real names on tool results', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      const turn = await store.startTurn({ sessionId: s.id, userText: 'hi' });
      await store.appendMessage(turn.id, {
        role: 'assistant',
        content: 'checking',
        toolCalls: [{ id: 'c1', name: 'mcp__notes__find', arguments: '{"q":"x"}' }],
      });
      await store.appendMessage(
        turn.id,
        { role: 'tool', toolCallId: 'c1', name: 'mcp__notes__find', content: 'nothing', isError: true },
        { tool: 'mcp/notes/find' },
      );
      await store.appendMessage(turn.id, { role: 'assistant', content: 'Nothing found.' });
      const all = await store.listMessages(s.id);
      expect(all.map((m) => m.message)).toEqual([
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: 'checking',
          toolCalls: [{ id: 'c1', name: 'mcp__notes__find', arguments: '{"q":"x"}' }],
        },
        { role: 'tool', toolCallId: 'c1', name: 'mcp__notes__find', content: 'nothing', isError: true },
        { role: 'assistant', content: 'Nothing found.' },
      ]);
      expect(all[2]?.tool).toBe('mcp/notes/find');
      expect(all.every((m) => m.turnId === turn.id && m.sessionId === s.id)).toBe(true);
      expect(all.map((m) => m.seq)).toEqual([...all.map((m) => m.seq)].sort((a, b) => a - b));
      const after = await store.listMessages(s.id, { afterSeq: all[1]!.seq, limit: 1 });
      expect(after.map((m) => m.message.content)).toEqual(['nothing']);
      await expect(
        store.appendMessage(turn.id, {
          role: 'tool',
          toolCallId: '',
          name: 'x',
          content: '',
          isError: false,
        }),
      ).rejects.toThrow(/toolCallId/);
    });

    it('pages after the last message seen with exactly what was added since, by any connection, calls and their arguments included', async () => {
      // A runtime keeps a session's conversation and reads only this page before each request.
      const store = await subject.open();
      const { session, turn } = await turnWithCalls(store, [
        newCall('c1', 'notes/find', { q: 'tax' }, { status: 'approved' }),
      ]);
      const seen = await store.listMessages(session.id);
      const other = await subject.reopen(store);
      // Another session's messages take seqs in between.
      await turnWithCalls(other, [newCall('c1', 'notes/find', { q: 'elsewhere' })]);
      expect(await other.claimToolCall(turn.id, 'c1', 'host:2')).toBe(true);
      await other.recordToolResult(turn.id, 'c1', { status: 'done', content: 'two notes', isError: false });
      const next = await store.startTurn({ sessionId: session.id, userText: 'and receipts?' });
      await other.recordModelReply(next.id, {
        content: 'Looking.',
        calls: [newCall('c1', 'notes/find', { q: 'receipts' })],
      });
      const added = await store.listMessages(session.id, { afterSeq: seen.at(-1)?.seq });
      expect(added.map((m) => m.message)).toEqual([
        { role: 'tool', toolCallId: 'c1', name: 'notes__find', content: 'two notes', isError: false },
        { role: 'user', content: 'and receipts?' },
        {
          role: 'assistant',
          content: 'Looking.',
          toolCalls: [{ id: 'c1', name: 'notes__find', arguments: '{"q":"receipts"}' }],
        },
      ]);
      expect([...seen, ...added]).toEqual(await store.listMessages(session.id));
      expect(await store.listMessages(session.id, { afterSeq: added.at(-1)?.seq })).toEqual([]);
    });

    it('moves a turn only from the states it is allowed to leave', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      const turn = await store.startTurn({ sessionId: s.id, userText: 'go' });
      expect(await store.setTurnStatus(turn.id, 'waiting_approval')).toBe(true);
      // Two resumers race for the waiting turn: one wins.
      const resume = { from: ['waiting_approval'] as const, owner: 'host:2' };
      expect(await store.setTurnStatus(turn.id, 'running', resume)).toBe(true);
      expect(await store.setTurnStatus(turn.id, 'running', resume)).toBe(false);
      expect((await store.getTurn(turn.id))?.owner).toBe('host:2');
      expect(await store.setTurnStatus(turn.id, 'failed', { error: 'provider down' })).toBe(true);
      const ended = await store.getTurn(turn.id);
      expect(ended).toMatchObject({ status: 'failed', error: 'provider down' });
      expect(ended?.endedAt).toBeDefined();
      expect(await store.setTurnStatus(turn.id, 'done')).toBe(false);
      expect((await store.getTurn(turn.id))?.status).toBe('failed');
      await expect(store.setTurnStatus('missing', 'done')).rejects.toThrow(StoreNotFoundError);
      await expect(store.setTurnStatus(turn.id, 'finished' as never)).rejects.toThrow(/one of/);
    });

    it('finds the unfinished turns after a restart', async () => {
      const first = await subject.open();
      const s = await first.createSession();
      const a = await first.startTurn({ sessionId: s.id, userText: 'a' });
      const b = await first.startTurn({ sessionId: s.id, userText: 'b' });
      await first.startTurn({ sessionId: s.id, userText: 'c' });
      await first.setTurnStatus(a.id, 'waiting_approval');
      await first.setTurnStatus(b.id, 'done');
      const second = await subject.reopen(first);
      const open = await second.listTurns({ status: ['running', 'waiting_approval'] });
      expect(open.map((t) => t.userText)).toEqual(['a', 'c']);
      expect((await second.listTurns({ sessionId: s.id, status: 'done' })).map((t) => t.id)).toEqual([b.id]);
      await expect(second.listTurns({ status: 'sleeping' as never })).rejects.toThrow(/one of/);
    });
  });

  describe('what a write returns', () => {
    // A write's returned record is what a read gives afterwards, also for text SQLite does not keep as
    // given (half of a character): the store may build it from what it wrote, never from something else.
    for (const [what, text] of [
      ['whole characters', 'Book the flight to Zürich 🛫'],
      ['half of a character', 'cut inside an emoji \ud83d'],
    ] as const) {
      it(`is what a read gives back afterwards (${what})`, async () => {
        const store = await subject.open();
        const session = await store.createSession({
          title: text,
          agent: 'planner',
          provider: 'p',
          model: 'm',
        });
        expect(await store.getSession(session.id)).toEqual(session);
        const turn = await store.startTurn({
          sessionId: session.id,
          userText: text,
          owner: 'host:1',
          agent: 'planner',
          mode: 'agent',
          provider: 'p',
          model: 'm',
          baseURL: 'http://localhost:1/v1',
          ranWith: { workdir: '/work', file: 'toolseam.json', sha256: 'ab12' },
        });
        expect(await store.getTurn(turn.id)).toEqual(turn);
        const call = newCall('c1', 'notes/write', { text });
        const reply = await store.recordModelReply(turn.id, { content: text, calls: [call] });
        expect(await store.getToolCall(turn.id, 'c1')).toEqual(reply.calls[0]);
        await store.approveToolCall(turn.id, 'c1');
        await store.claimToolCall(turn.id, 'c1', 'host:1');
        const result = await store.recordToolResult(turn.id, 'c1', {
          status: 'done',
          content: text,
          isError: false,
        });
        expect(await store.getToolCall(turn.id, 'c1')).toEqual(result.call);
        const answer = await store.appendMessage(turn.id, { role: 'assistant', content: text });
        expect(await store.listMessages(session.id)).toEqual([
          expect.objectContaining({ seq: expect.any(Number) }),
          reply.message,
          result.message,
          answer,
        ]);
      });
    }
  });

  describe("a call's raw arguments holding half of a character", () => {
    // As the model sent them, not escaped as JSON.stringify would: the store keeps such text otherwise.
    it('come back from recordModelReply as a read gives them afterwards', async () => {
      const store = await subject.open();
      const text = 'cut inside an emoji \ud83d';
      const sent = { ...newCall('c1', 'notes/write', { text }), rawArguments: `{"text":"${text}"}` };
      const { turn, reply } = await turnWithCalls(store, [sent]);
      expect(await store.getToolCall(turn.id, 'c1')).toEqual(reply.calls[0]);
    });
  });

  describe('text holding a NUL character (U+0000)', () => {
    // A tool's output may carry one (a binary file read as text); SQLite keeps it, PostgreSQL's text cannot.
    it('is kept and read back exactly, in a turn, a message, a call and its result', async () => {
      const store = await subject.open();
      const text = 'before\u0000after \uFDD0 end';
      const session = await store.createSession({ title: text });
      const turn = await store.startTurn({ sessionId: session.id, userText: text });
      await store.recordModelReply(turn.id, { content: text, calls: [newCall('c1', 'read_file', { text })] });
      await store.claimToolCall(turn.id, 'c1', 'host:1', { approving: true });
      await store.recordToolResult(turn.id, 'c1', { status: 'done', content: text, isError: false });
      expect((await store.getSession(session.id))?.title).toBe(text);
      expect((await store.getTurn(turn.id))?.userText).toBe(text);
      expect((await store.getToolCall(turn.id, 'c1'))?.result).toBe(text);
      expect((await store.listMessages(session.id)).map((m) => m.message.content)).toEqual([
        text,
        text,
        text,
      ]);
    });
  });

  describe('messages a host appends', () => {
    it("a host's own assistant message keeps the arguments of its calls", async () => {
      const store = await subject.open();
      const { session, turn } = await turnWithCalls(store, []);
      const toolCalls = [{ id: 'h1', name: 'lookup', arguments: '{"q":"tax"}' }];
      await store.appendMessage(turn.id, { role: 'assistant', content: '', toolCalls });
      expect((await store.listMessages(session.id)).at(-1)?.message).toEqual({
        role: 'assistant',
        content: '',
        toolCalls,
      });
    });
  });
}
