import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelAdapter } from '../../src/providers/index.js';
import { Runtime, type SendOptions, type SessionOptions } from '../../src/runtime/runtime.js';
import type { RuntimeOptions } from '../../src/runtime/runtime-options.js';
import { openSessionStore } from '../../src/store/index.js';
import { type ScriptTurn, type StandIn, startStandIn } from '../../src/testing/index.js';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { newCall, turnWithCalls } from '../store/store-fixtures.js';
import { callEnds, collect } from '../support/runtime-harness.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

/** A read-only lookup (which can be made to hang, standing in for a process that died mid-call) and an email sender. */
function tools(sent: string[], hang: boolean) {
  const registry = createToolRegistry();
  registry.register(
    inProcessProvider({
      name: 'demo',
      tools: [
        defineTool({
          name: 'lookup_weather',
          description: 'Look up the weather forecast for a city.',
          risk: 'safe',
          readOnly: true,
          fields: { city: field.string({ maxLength: 80 }) },
          handler: async (args, ctx) => {
            // hangs until the turn is stopped (when its runtime closes)
            if (hang) await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
            return `Sunny in ${args.city}.`;
          },
        }),
        defineTool({
          name: 'send_email',
          description: 'Send an email to one person.',
          risk: 'caution',
          fields: { to: field.string({ maxLength: 200 }) },
          handler: (args) => {
            sent.push(args.to);
            return `sent to ${args.to}`;
          },
        }),
      ],
    }),
  );
  return registry;
}

async function standIn(script: readonly ScriptTurn[]): Promise<StandIn> {
  const s = await startStandIn({ family: 'openai', script });
  cleanups.push(() => s.close());
  return s;
}

/** A store on a new temp file, removed with its folder when the test ends. */
function freshStore() {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-resume-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const dbPath = join(dir, 'toolseam.db');
  const store = openSessionStore({ path: dbPath });
  cleanups.push(() => store.close());
  return { dbPath, store };
}

function runtime(
  s: StandIn,
  dbPath: string,
  sent: string[],
  hang: boolean,
  extra: Partial<RuntimeOptions> = {},
) {
  const model = createModelAdapter({ ...s.modelConfig('stand-in'), retry: { maxRetries: 0 } } as never);
  const r = new Runtime({
    model,
    registry: tools(sent, hang),
    store: openSessionStore({ path: dbPath }),
    approvals: { policy: 'auto' },
    ...extra,
  });
  cleanups.push(() => r.close());
  return r;
}

/**
 * A turn started by a process that died while its first call ran, taken over by a new runtime whose
 * model then asks to send an email. Returns the email tool's outcome and whether it ran.
 */
async function resumedEmail(session: SessionOptions, send: SendOptions, agents?: RuntimeOptions['agents']) {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-resume-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const dbPath = join(dir, 'toolseam.db');
  const sent: string[] = [];
  const first = await standIn([{ toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] }]);
  const dead = runtime(first, dbPath, sent, true, {
    owner: `${hostname()}:999999`,
    ...(agents ? { agents } : {}),
  });
  await dead.session('s');
  void collect(await (await dead.session('s', session)).send('plan a trip, send nothing', send));
  const store = openSessionStore({ path: dbPath });
  cleanups.push(() => store.close());
  await expect
    // a loaded machine may take seconds to reach the call: poll's own second is not enough
    .poll(async () => (await store.listToolCalls({ sessionId: 's' })).map((c) => c.status), {
      timeout: 30_000,
    })
    .toEqual(['running']);

  const second = await standIn([
    { toolCalls: [{ name: 'send_email', arguments: { to: 'boss@example.com' } }] },
    { text: 'done' },
  ]);
  const next = runtime(second, dbPath, sent, false, agents ? { agents } : {});
  const [orphan] = await next.orphanedTurns();
  const events = await collect(await next.resumeTurn(orphan?.id as string));
  return { email: callEnds(events).find((e) => e.tool === 'send_email'), sent };
}

describe('a resumed turn is screened as the original was', () => {
  it('a plan-mode turn stays in plan mode: the write tool is refused, not run', async () => {
    const { email, sent } = await resumedEmail({}, { mode: 'plan' });
    expect(email?.content).toContain('read-only gate');
    expect(sent).toEqual([]);
  });

  it("a turn run as an agent (given to an existing session) keeps to the agent's tool list", async () => {
    const { email, sent } = await resumedEmail({ agent: 'reader' }, {}, { reader: { tools: ['lookup_*'] } });
    expect(email?.content).toContain('the agent "reader" may use only the tools on its tool list');
    expect(sent).toEqual([]);
  });

  it('control: an agent-mode turn resumed runs the email', async () => {
    const { email, sent } = await resumedEmail({}, {});
    expect(email?.content).toBe('sent to boss@example.com');
    expect(sent).toEqual(['boss@example.com']);
  });
});

describe('resuming a turn this runtime is still driving', () => {
  it('is refused, so no call is settled twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-resume-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const s = await standIn([{ toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] }]);
    const live = runtime(s, join(dir, 'toolseam.db'), [], true);
    const session = await live.session('s');
    void collect(await session.send('weather?'));
    const store = openSessionStore({ path: join(dir, 'toolseam.db') });
    cleanups.push(() => store.close());
    await expect
      .poll(async () => (await store.listTurns({ sessionId: 's' })).map((t) => t.status), {
        timeout: 30_000,
      })
      .toEqual(['running']);
    const turnId = (await store.listTurns({ sessionId: 's' }))[0]?.id as string;
    await expect(live.resumeTurn(turnId)).rejects.toThrow(/running a turn in this runtime/);
    session.stop();
  });
});

describe('an approval a dead process left waiting', () => {
  it('keeps the deadline it was asked with when the turn is resumed, and the turn shows it waits', async () => {
    const { dbPath, store } = freshStore();
    // What a process that died while asking leaves behind: its turn, the call, the request and its deadline.
    const { turn } = await turnWithCalls(store, [newCall('c1', 'send_email', { to: 'a@example.com' })]);
    await store.setTurnStatus(turn.id, 'running', { owner: `${hostname()}:999999` });
    await store.requestApproval({
      turnId: turn.id,
      callId: 'c1',
      risk: 'caution',
      meaning: 'sends an email',
      expiresAt: new Date(Date.now() + 300).toISOString(),
    });

    const sent: string[] = [];
    const next = runtime(await standIn([{ text: 'ok' }]), dbPath, sent, false, {
      approvals: { policy: 'ask', timeoutMs: 60_000 },
    });
    const started = Date.now();
    const seen: string[] = [];
    const events = [];
    for await (const event of await next.resumeTurn(turn.id)) {
      events.push(event);
      if (event.type === 'approval-request') seen.push((await store.getTurn(turn.id))?.status ?? '');
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(seen).toEqual(['waiting_approval']);
    expect(callEnds(events)[0]?.content).toContain('no one answered');
    expect(sent).toEqual([]);
  });
});

describe('an approval whose deadline passed while no process drove its turn', () => {
  it('is closed as expired on resume, never asked again', async () => {
    const { dbPath, store } = freshStore();
    const { turn } = await turnWithCalls(store, [newCall('c1', 'send_email', { to: 'a@example.com' })]);
    await store.setTurnStatus(turn.id, 'running', { owner: `${hostname()}:999999` });
    const approval = await store.requestApproval({
      turnId: turn.id,
      callId: 'c1',
      risk: 'caution',
      meaning: 'sends an email',
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });

    const sent: string[] = [];
    const next = runtime(await standIn([{ text: 'ok' }]), dbPath, sent, false, {
      approvals: { policy: 'ask', timeoutMs: 60_000 },
    });
    const events = await collect(await next.resumeTurn(turn.id));
    expect(events.filter((e) => e.type === 'approval-request')).toEqual([]);
    expect(events).toContainEqual({
      type: 'approval-resolved',
      approvalId: approval.id,
      decision: 'expired',
    });
    expect(callEnds(events)[0]).toMatchObject({ refusedBy: 'timeout', status: 'refused' });
    expect((await store.getApproval(approval.id))?.status).toBe('expired');
    expect((await store.getTurn(turn.id))?.status).toBe('done');
    expect(sent).toEqual([]);
  });
});

describe("a resumed turn's bounds", () => {
  it('count what the turn did before its process died: model calls and repeated calls', async () => {
    const { dbPath, store } = freshStore();
    const oslo = { city: 'Oslo' };
    const { turn } = await turnWithCalls(store, [newCall('c1', 'lookup_weather', oslo)]);
    await store.approveToolCall(turn.id, 'c1');
    await store.claimToolCall(turn.id, 'c1');
    await store.recordToolResult(turn.id, 'c1', {
      status: 'done',
      content: 'Sunny in Oslo.',
      isError: false,
    });
    // The second reply asks for the same call again; the process died before screening it.
    await store.recordModelReply(turn.id, { content: '', calls: [newCall('c2', 'lookup_weather', oslo)] });
    await store.setTurnStatus(turn.id, 'running', { owner: `${hostname()}:999999` });

    const model = await standIn([{ text: 'one more answer' }]);
    const next = runtime(model, dbPath, [], false, { limits: { maxModelCalls: 2, repeatLimit: 1 } });
    const events = await collect(await next.resumeTurn(turn.id));
    expect(callEnds(events)).toMatchObject([{ callId: 'c2', refusedBy: 'loop_breaker' }]);
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', status: 'limit', errorCode: 'model_call_limit' });
    expect(model.requests).toHaveLength(0);
  });
});

describe("a resumed turn's bounds, after a compaction in the turn", () => {
  it('count its summary request among the model calls, as the live turn did', async () => {
    const { dbPath, store } = freshStore();
    const { turn } = await turnWithCalls(store, [newCall('c1', 'lookup_weather', { city: 'Oslo' })]);
    await store.approveToolCall(turn.id, 'c1');
    await store.claimToolCall(turn.id, 'c1');
    await store.recordToolResult(turn.id, 'c1', {
      status: 'done',
      content: 'Sunny in Oslo.',
      isError: false,
    });
    // the turn's next request needed a summary of older turns first; the process died after it
    const seq = (await store.listMessages(turn.sessionId)).at(-1)?.seq ?? 0;
    await store.addCompaction({
      sessionId: turn.sessionId,
      turnId: turn.id,
      throughSeq: seq,
      summary: 'The weather in Oslo was asked for.',
      messagesCovered: 3,
      tokensBefore: 9_000,
      tokensAfter: 1_000,
      reason: 'threshold',
    });
    await store.setTurnStatus(turn.id, 'running', { owner: `${hostname()}:999999` });

    const model = await standIn([{ text: 'one more answer' }]);
    const next = runtime(model, dbPath, [], false, { limits: { maxModelCalls: 2 } });
    const events = await collect(await next.resumeTurn(turn.id));
    expect(events.at(-1)).toMatchObject({ type: 'turn-end', status: 'limit', errorCode: 'model_call_limit' });
    expect(model.requests).toHaveLength(0);
  });
});

describe("a resumed turn's bounds, for a call its tool's preflight refused", () => {
  it('count it, as the live turn did when it was on its way to the person', async () => {
    const { dbPath, store } = freshStore();
    const boss = { to: 'boss@example.com' };
    const { turn } = await turnWithCalls(store, [newCall('c1', 'send_email', boss)]);
    await store.recordToolResult(turn.id, 'c1', {
      status: 'refused',
      content: 'Error: send_email was not run: the address is on the blocked list',
      isError: true,
      notRun: 'refused_by_tool',
      refusedBy: 'preflight',
    });
    // The second reply asks for the same call again; the process died before screening it.
    await store.recordModelReply(turn.id, { content: '', calls: [newCall('c2', 'send_email', boss)] });
    await store.setTurnStatus(turn.id, 'running', { owner: `${hostname()}:999999` });

    const sent: string[] = [];
    const model = await standIn([{ text: 'I will not send it.' }]);
    const next = runtime(model, dbPath, sent, false, { limits: { repeatLimit: 1 } });
    const events = await collect(await next.resumeTurn(turn.id));
    expect(callEnds(events)).toMatchObject([{ callId: 'c2', refusedBy: 'loop_breaker' }]);
    expect(sent).toEqual([]);
  });
});

describe('a turn started as an agent this runtime does not define', () => {
  it('is not taken over, and stays resumable by a runtime that has the agent', async () => {
    const { dbPath, store } = freshStore();
    const session = await store.createSession({ provider: 'openai', model: 'gpt-test' });
    const turn = await store.startTurn({ sessionId: session.id, userText: 'hi', agent: 'reader' });
    await store.setTurnStatus(turn.id, 'running', { owner: `${hostname()}:999999` });
    const next = runtime(await standIn([{ text: 'ok' }]), dbPath, [], false);
    await expect(next.resumeTurn(turn.id)).rejects.toThrow(
      expect.objectContaining({ code: 'unknown_agent' }),
    );
    expect(await store.getTurn(turn.id)).toMatchObject({ status: 'running', owner: `${hostname()}:999999` });
  });
});

describe('the calls a dead process left', () => {
  it("run in the model's order: one never screened before a later, approved one", async () => {
    const { dbPath, store } = freshStore();
    const { turn } = await turnWithCalls(store, [
      newCall('c1', 'send_email', { to: 'first@example.com' }),
      newCall('c2', 'send_email', { to: 'second@example.com' }, { status: 'approved' }),
    ]);
    await store.setTurnStatus(turn.id, 'running', { owner: `${hostname()}:999999` });
    const sent: string[] = [];
    const next = runtime(await standIn([{ text: 'ok' }]), dbPath, sent, false);
    await collect(await next.resumeTurn(turn.id));
    expect(sent).toEqual(['first@example.com', 'second@example.com']);
  });
});

describe('a call a dead process left whose arguments were not readable', () => {
  it('is answered as unreadable, never run with empty arguments', async () => {
    const { dbPath, store } = freshStore();
    // The process died waiting on the first call's approval, before it answered the second.
    const { turn } = await turnWithCalls(store, [
      newCall('c1', 'send_email', { to: 'first@example.com' }, { status: 'approved' }),
      newCall('c2', 'lookup_weather', {}, { rawArguments: '{"city": "Oslo"', arguments: undefined }),
    ]);
    await store.setTurnStatus(turn.id, 'running', { owner: `${hostname()}:999999` });
    const sent: string[] = [];
    const next = runtime(await standIn([{ text: 'ok' }]), dbPath, sent, false);
    const events = await collect(await next.resumeTurn(turn.id));
    expect(sent).toEqual(['first@example.com']);
    const second = callEnds(events).find((e) => e.callId === 'c2');
    expect(second).toMatchObject({ status: 'failed', notRun: 'unreadable_arguments', isError: true });
    expect(second?.content).toContain('not valid JSON');
  });
});

describe('a turn recorded on another model', () => {
  it('is not resumed on this one (its conversation would go there), and stays resumable', async () => {
    const { dbPath, store } = freshStore();
    const session = await store.createSession({ provider: 'openai-compatible', model: 'demo' });
    const owner = `${hostname()}:999999`;
    const turn = await store.startTurn({
      sessionId: session.id,
      userText: 'hi',
      owner,
      provider: 'openai-compatible',
      model: 'demo',
    });
    const next = runtime(await standIn([{ text: 'ok' }]), dbPath, [], false);
    await expect(next.resumeTurn(turn.id)).rejects.toThrow(
      /ran on openai-compatible model "demo", not openai-compatible model "stand-in"/,
    );
    expect(await store.getTurn(turn.id)).toMatchObject({ status: 'running', owner });
  });
});
