import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '../src/core/session-store.js';
import { openSessionStore } from '../src/store/index.js';
import { CHECKPOINT_EVERY_COMMITS } from '../src/store/wal-checkpointer.js';
import type { BenchFigure } from './run.js';
import { median } from './stats.js';

/** Median wall time of `work` (awaited, as its callers do) in milliseconds over `rounds` runs, after a few warm-up runs. */
async function p50(rounds: number, work: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await work(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await work(i);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

/** Everything the store does for one model round trip that ran one tool call. */
async function roundTrip(store: SessionStore, turnId: string, i: number): Promise<void> {
  const args = { path: `notes/${i}.md` };
  const id = `c${i}`;
  await store.recordModelReply(turnId, {
    content: '',
    calls: [
      {
        id,
        tool: 'read_file',
        wireName: 'read_file',
        rawArguments: JSON.stringify(args),
        arguments: args,
        digest: `d${i}`,
      },
    ],
  });
  await store.approveToolCall(turnId, id);
  await store.claimToolCall(turnId, id, 'bench');
  await store.recordToolResult(turnId, id, { status: 'done', content: 'some file text', isError: false });
}

/** The store's writes of one turn, in order, as the runtime makes them. */
const TURN_WRITES = ['createSession', 'startTurn', 'reply', 'claim', 'result', 'answer'] as const;
type TurnWrite = (typeof TURN_WRITES)[number];

/**
 * What the store does for one turn of the turn bench (`npm run bench -- turn`): a new session, its
 * turn, one tool call run and a final answer, each write awaited as the runtime awaits it, with the
 * reads the runtime makes between (tool switches, quarantine, the history, the turn's calls). `around`
 * wraps each write.
 */
async function benchTurn(
  store: SessionStore,
  i: number,
  around: (write: TurnWrite, work: () => Promise<unknown>) => Promise<unknown> = (_w, work) => work(),
): Promise<void> {
  const usage = { inputTokens: 1, outputTokens: 1, requestChars: 9000 };
  const id = `call_${i}`;
  const session = (await around('createSession', () =>
    store.createSession({ provider: 'openai-compatible', model: 'bench' }),
  )) as Awaited<ReturnType<SessionStore['createSession']>>;
  const turn = (await around('startTurn', () =>
    store.startTurn({
      sessionId: session.id,
      userText: `Please look up record r-${i}, owner Dana.`,
      owner: 'bench:1',
      provider: 'openai-compatible',
      model: 'bench',
    }),
  )) as Awaited<ReturnType<SessionStore['startTurn']>>;
  await store.listToolSwitches({ afterSeq: 0 });
  await store.listQuarantined({ provider: 'openai-compatible', model: 'bench' });
  await store.listMessages(session.id, { afterSeq: 0 });
  await store.listToolCalls({ turnId: turn.id });
  const args = { id: `r-${i}`, owner: 'Dana' };
  const call = { id, wireName: 'lookup_record', tool: 'lookup_record', digest: `d${i}` };
  const calls = [{ ...call, rawArguments: JSON.stringify(args), arguments: args, argumentsAsRaw: true }];
  await around('reply', () => store.recordModelReply(turn.id, { content: '', calls, usage }));
  await around('claim', () => store.claimToolCall(turn.id, id, undefined, { approving: true }));
  const result = { status: 'done' as const, content: `{"id":"r-${i}","status":"open"}`, isError: false };
  await around('result', () => store.recordToolResult(turn.id, id, result));
  await store.listMessages(session.id, { afterSeq: 2 });
  const answer = { content: `Record r-${i} is open.`, endsTurn: true, usage };
  await around('answer', () => store.recordModelReply(turn.id, answer));
}

/** The write-ahead log's page size and restart count, from its header (0s while it is empty). */
function walHeader(path: string): { pageSize: number; restarts: number } {
  const header = Buffer.alloc(16);
  let fd: number;
  try {
    fd = openSync(`${path}-wal`, 'r');
  } catch {
    return { pageSize: 0, restarts: 0 };
  }
  try {
    if (readSync(fd, header, 0, 16, 0) < 16) return { pageSize: 0, restarts: 0 };
  } finally {
    closeSync(fd);
  }
  return { pageSize: header.readUInt32BE(8), restarts: header.readUInt32BE(12) };
}

/**
 * Frames each of a turn's writes appends to the log of a fresh store (one frame per page it changes), over
 * turns few enough that no checkpoint starts the log over meanwhile.
 */
async function framesPerWrite(dir: string): Promise<Map<TurnWrite, number>> {
  const path = join(dir, 'frames.db');
  const store = openSessionStore({ path });
  const turns = 15;
  const warm = 3;
  if ((turns + warm) * TURN_WRITES.length >= CHECKPOINT_EVERY_COMMITS)
    throw new Error('The frames would be counted across a checkpoint: count over fewer turns.');
  const frames = new Map<TurnWrite, number>(TURN_WRITES.map((w) => [w, 0]));
  const walBytes = () => {
    try {
      return statSync(`${path}-wal`).size;
    } catch {
      return 0;
    }
  };
  try {
    for (let i = 0; i < warm; i += 1) await benchTurn(store, i);
    for (let i = 0; i < turns; i += 1) {
      await benchTurn(store, warm + i, async (write, work) => {
        const before = { bytes: walBytes(), header: walHeader(path) };
        const done = await work();
        const header = walHeader(path);
        if (header.restarts !== before.header.restarts || header.pageSize === 0)
          throw new Error('The log started over while frames were counted.');
        const added = (walBytes() - before.bytes) / (header.pageSize + 24);
        frames.set(write, (frames.get(write) ?? 0) + added / turns);
        return done;
      });
    }
  } finally {
    await store.close();
  }
  return frames;
}

/** The store's share of the turn bench's turn: time, and the pages its writes put in the log. */
async function turnFigures(dir: string): Promise<BenchFigure[]> {
  const store = openSessionStore({ path: join(dir, 'turns.db') });
  let turn: number;
  try {
    for (let i = 0; i < 300; i += 1) await benchTurn(store, i);
    // Each turn is a session of its own: a call id need only be unique within it.
    turn = await p50(2000, (round) => benchTurn(store, round));
  } finally {
    await store.close();
  }
  const frames = await framesPerWrite(dir);
  const total = [...frames.values()].reduce((a, b) => a + b, 0);
  return [
    {
      name: "store (normal sync): the turn bench's turn, p50",
      value: turn * 1000,
      unit: 'µs',
    },
    { name: '  pages its writes put in the log (fresh store)', value: total, unit: 'frames' },
    ...TURN_WRITES.map((w) => ({ name: `    of which ${w}`, value: frames.get(w) ?? 0, unit: 'frames' })),
  ];
}

async function measure(dir: string, synchronous: 'full' | 'normal'): Promise<BenchFigure[]> {
  const store = openSessionStore({ path: join(dir, `${synchronous}.db`), synchronous });
  try {
    const session = await store.createSession();
    const turn = await store.startTurn({ sessionId: session.id, userText: 'bench' });
    const trip = await p50(200, (i) => roundTrip(store, turn.id, i + 10));
    const approvalTurn = await store.startTurn({ sessionId: session.id, userText: 'ask' });
    const args = { cmd: 'ls' };
    await store.recordModelReply(approvalTurn.id, {
      content: '',
      calls: [
        {
          id: 'a',
          tool: 'bash',
          wireName: 'bash',
          rawArguments: '{"cmd":"ls"}',
          arguments: args,
          digest: 'd',
        },
      ],
    });
    const approval = await store.requestApproval({
      turnId: approvalTurn.id,
      callId: 'a',
      risk: 'caution',
      meaning: 'Runs ls',
    });
    const poll = await p50(2000, () => store.getApproval(approval.id));
    for (let i = 0; i < 200; i++)
      await store.saveMemory({ text: `memory number ${i} about topic ${i % 17}`, tags: ['bench'] });
    const recall = await p50(500, () => store.recallMemories('topic 5 memory', { limit: 10 }));
    return [
      { name: `store (${synchronous} sync): writes of one tool round trip, p50`, value: trip, unit: 'ms' },
      { name: `store (${synchronous} sync): getApproval poll, p50`, value: poll * 1000, unit: 'µs' },
      { name: `store (${synchronous} sync): recallMemories over 200, p50`, value: recall * 1000, unit: 'µs' },
    ];
  } finally {
    await store.close();
  }
}

/**
 * The session store's own cost: what a model round trip writes, what a waiting approval's poll reads, and
 * what the turn bench's turn costs in it (with the pages its writes log).
 */
export async function bench(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-store-bench-'));
  try {
    return [...(await measure(dir, 'full')), ...(await measure(dir, 'normal')), ...(await turnFigures(dir))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
