import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/core/session-store.js';
import { commandScopeOf, newCall, openTestStore, tempDbPath, turnWithCalls } from './store-fixtures.js';

interface Ran {
  readonly sql: string;
  readonly params: unknown[];
}

/** The statements `work` ran through better-sqlite3, with their parameters (the real library, watched). */
function statementsRunBy(work: () => void): Ran[] {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  const ran: Ran[] = [];
  const methods = ['all', 'get', 'run', 'iterate'] as const;
  const originals = methods.map((m) => proto[m] as (...args: unknown[]) => unknown);
  methods.forEach((m, i) => {
    proto[m] = function (this: { source: string }, ...params: unknown[]) {
      ran.push({ sql: this.source, params });
      return originals[i]?.apply(this, params);
    };
  });
  try {
    work();
  } finally {
    methods.forEach((m, i) => {
      proto[m] = originals[i];
    });
  }
  return ran;
}

/** How SQLite reads each table `statement` touches: "SEARCH …" (through an index) or "SCAN …" (every row). */
function planOf(path: string, statement: Ran): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
      .all(...statement.params)
      .map((row) => (row as { detail: string }).detail)
      .filter((detail) => /^(SCAN|SEARCH) /.test(detail));
  } finally {
    db.close();
  }
}

/** A store holding two sessions, one turn each, with a few calls. */
async function filledStore(
  path: string,
): Promise<{ store: SessionStore; sessionId: string; turnId: string }> {
  const store = openTestStore(path);
  await turnWithCalls(store, [newCall('c1', 'read_file', { path: 'old.txt' })], 'An older chat');
  const { session, turn } = await turnWithCalls(store, [
    newCall('c1', 'read_file', { path: 'a.txt' }),
    newCall('c2', 'bash', { command: 'ls' }),
  ]);
  return { store, sessionId: session.id, turnId: turn.id };
}

describe('what every turn reads goes through an index, not through the whole table', () => {
  it("lists a turn's or a session's calls and a turn's waiting approvals, and finds unfinished turns, by index", async () => {
    const path = tempDbPath();
    const { store, sessionId, turnId } = await filledStore(path);
    const loose = ['pending', 'approved', 'running'] as const;
    const reads: [string, () => unknown][] = [
      // Every model reply with calls, and a resumed turn.
      ['calls of a turn', () => store.listToolCalls({ turnId })],
      ['loose calls of a turn', () => store.listToolCalls({ turnId, status: [...loose] })],
      // Every new turn: what a dead process left in the session.
      ['loose calls of a session', () => store.listToolCalls({ sessionId, status: [...loose] })],
      [
        'unfinished turns of a session',
        () => store.listTurns({ sessionId, status: ['running', 'waiting_approval'] }),
      ],
      // Every turn's end: the approvals it still waits on.
      ['the end of a turn waiting on an approval', () => store.setTurnStatus(turnId, 'done')],
      // `toolseam sessions`, `toolseam resume`: the turns a dead process left, in every session.
      ['unfinished turns', () => store.listTurns({ status: ['running', 'waiting_approval'] })],
      // Every call that would ask: the standing grants that may cover it, and (when asked) withdrawn ones.
      ['grants of a tool', () => store.listGrants({ sessionId, tool: 'bash' })],
      ['withdrawn grants of a tool', () => store.listGrants({ sessionId, tool: 'bash', status: 'revoked' })],
    ];
    await store.requestApproval({ turnId, callId: 'c2', risk: 'destructive', meaning: 'Runs ls.' });
    await store.addGrant({ tool: 'bash', sessionId, scope: commandScopeOf('git', 'status') });
    await store.revokeGrant((await store.addGrant({ tool: 'bash', scope: commandScopeOf('ls') })).id);
    for (const [what, read] of reads) {
      let answer: unknown;
      // The SQLite store runs a method's statements within the call itself; its promise settles after.
      const ran = statementsRunBy(() => {
        answer = read();
      });
      expect(await answer, what).not.toEqual([]);
      expect(ran.length, what).toBeGreaterThan(0);
      for (const statement of ran) {
        for (const step of planOf(path, statement))
          expect(step, `${what}: ${statement.sql}`).toMatch(/^SEARCH /);
      }
    }
  });

  it("finds a session's unfinished turns and loose calls without reading its finished ones", async () => {
    // Every new turn asks for both: read through the session index, their cost grew with the session.
    const path = tempDbPath();
    const { store, sessionId } = await filledStore(path);
    const reads: [string, () => unknown, RegExp][] = [
      [
        'loose calls of a session',
        () => store.listToolCalls({ sessionId, status: ['pending', 'approved', 'running'] }),
        /USING INDEX tool_calls_unfinished \(status=\? AND session_id=\?\)/,
      ],
      [
        'unfinished turns of a session',
        () => store.listTurns({ sessionId, status: ['running', 'waiting_approval'] }),
        /USING INDEX turns_unfinished \(status=\? AND session_id=\?\)/,
      ],
    ];
    for (const [what, read, index] of reads) {
      let answer: unknown;
      const ran = statementsRunBy(() => {
        answer = read();
      });
      expect(await answer, what).not.toEqual([]);
      expect(ran, what).toHaveLength(1);
      expect(planOf(path, ran[0] as Ran), what).toEqual([expect.stringMatching(index)]);
    }
  });

  it('reads the tool switches flipped since the last read (every turn) through their index', async () => {
    const path = tempDbPath();
    const { store } = await filledStore(path);
    const first = await store.setToolSwitch({ tool: 'bash', on: false });
    await store.setToolSwitch({ tool: 'read_file', on: false });
    let answer: unknown;
    const ran = statementsRunBy(() => {
      answer = store.listToolSwitches({ afterSeq: first.seq });
    });
    expect(((await answer) as { tool: string }[]).map((s) => s.tool)).toEqual(['read_file']);
    expect(ran).toHaveLength(1);
    expect(planOf(path, ran[0] as Ran)).toEqual([expect.stringMatching(/USING INDEX tool_switches_by_seq/)]);
  });
});

describe('a page read is planned once, not on every call', () => {
  it('binds no LIMIT that SQLite would read while planning (it re-prepares such a statement at each bind)', async () => {
    const path = tempDbPath();
    const { store, sessionId, turnId } = await filledStore(path);
    await store.recordUsage({ sessionId, turnId, inputTokens: 10, outputTokens: 2, requestChars: 40 });
    await store.appendTurnEvents([{ sessionId, turnId, type: 'text', data: { text: 'hi' } }]);
    await store.saveMemory({ text: 'The build runs on Node 20.' });
    await store.enqueueOutbox({ channel: 'ops', service: 'webhook', payload: { text: 'done' } });
    const reads: [string, () => unknown][] = [
      ['a page of messages', () => store.listMessages(sessionId, { afterSeq: 1, limit: 5 })],
      ['every message', () => store.listMessages(sessionId)],
      ['model usage', () => store.listUsage(sessionId)],
      ['turn events', () => store.listTurnEvents({ sessionId, limit: 5 })],
      ["a turn's events", () => store.listTurnEvents({ turnId, limit: 5 })],
      ['sessions', () => store.listSessions({ limit: 5 })],
      ['audit', () => store.listAudit({ sessionId, limit: 5 })],
      ['memories', () => store.listMemories({ limit: 5 })],
      ['recalled memories', () => store.recallMemories('build', { limit: 5 })],
      ['the outbox claim', () => store.claimOutbox({ owner: 'p1', leaseMs: 1000, limit: 5 })],
    ];
    for (const [what, read] of reads) {
      let answer: unknown;
      const ran = statementsRunBy(() => {
        answer = read();
      });
      await answer;
      expect(ran.length, what).toBeGreaterThan(0);
      for (const statement of ran) expect(statement.sql, what).not.toMatch(/LIMIT\s+[?@:$]/i);
    }
  });
});

describe('the writes of every call', () => {
  it('record, claim and settle a call with no temporary table (RETURNING built one, with a statement journal)', async () => {
    const path = tempDbPath();
    const store = openTestStore(path);
    const writes: [string, () => unknown][] = [];
    const { turn } = await turnWithCalls(store, []);
    writes.push(
      [
        'a reply with calls',
        () =>
          store.recordModelReply(turn.id, {
            content: '',
            calls: [newCall('c1', 'read_file', { path: 'a.txt' }, { status: 'approved' })],
          }),
      ],
      ['the claim', () => store.claimToolCall(turn.id, 'c1', 'host:1')],
      [
        'the result',
        () => store.recordToolResult(turn.id, 'c1', { status: 'done', content: 'ok', isError: false }),
      ],
    );
    const db = new Database(path, { readonly: true });
    try {
      for (const [what, write] of writes) {
        let answer: unknown;
        const ran = statementsRunBy(() => {
          answer = write();
        });
        await answer;
        expect(ran.length, what).toBeGreaterThan(0);
        for (const statement of ran) {
          const opcodes = db
            .prepare(`EXPLAIN ${statement.sql}`)
            .all(...statement.params)
            .map((row) => (row as { opcode: string }).opcode);
          expect(opcodes, `${what}: ${statement.sql}`).not.toContain('OpenEphemeral');
        }
      }
    } finally {
      db.close();
    }
  });
});
