import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '../src/core/session-store.js';
import { openSessionStore } from '../src/store/index.js';
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

/** The session store's own cost: what a model round trip writes, what a waiting approval's poll reads. */
export async function bench(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-store-bench-'));
  try {
    return [...(await measure(dir, 'full')), ...(await measure(dir, 'normal'))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
