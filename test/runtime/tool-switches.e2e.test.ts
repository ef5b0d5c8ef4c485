import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { Runtime } from '../../src/runtime/runtime.js';
import { FixedByConfigError, UnknownToolError } from '../../src/runtime/tool-switches/switch-errors.js';
import { openSessionStore } from '../../src/store/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { demoProvider } from '../support/demo-tools.js';
import { collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
const others: Runtime[] = [];
afterEach(async () => {
  for (const other of others.splice(0)) await other.close();
  await h?.close();
  h = undefined;
});

/** A second runtime on the harness's database file and model, with its own registry (as another process has). */
function secondRuntime(harness: RuntimeHarness): Runtime {
  const registry = createToolRegistry();
  registry.register(demoProvider());
  const store = openSessionStore({ path: harness.dbPath });
  const other = new Runtime({
    model: harness.runtime.options.model,
    registry,
    store,
    workspace: [harness.dir],
  });
  others.push(other);
  return other;
}

/** The tool names the stand-in's `n`th request (0-based) offered. */
function offered(harness: RuntimeHarness, n: number): string[] {
  const request = harness.standIn.requests[n];
  if (!request) throw new Error(`the stand-in received no request ${n}`);
  return request.tools.map((t) => t.name);
}

async function say(runtime: Runtime, session: string, text: string) {
  return collect(await (await runtime.session(session)).send(text));
}

describe('tool switches', () => {
  it('a switch is stored and applies from the next turn: the tool leaves the request, and comes back when switched on', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
    });
    await say(h.runtime, 's', 'hello');
    expect(offered(h, 0)).toContain('send_email');

    const row = await h.runtime.switchTool('send_email', false, { by: 'test' });
    expect(row).toMatchObject({
      name: 'send_email',
      on: false,
      fixed: null,
      quarantine: null,
      status: 'excluded',
    });
    expect(row.switched).toMatchObject({ on: false, by: 'test' });
    // said as a person reads it: who, and the minute in UTC (not a raw ISO time)
    expect(row.why).toMatch(/^switched off by test on \d{4}-\d\d-\d\d at \d\d:\d\d UTC$/);
    await say(h.runtime, 's', 'mail someone');
    expect(offered(h, 1)).not.toContain('send_email');
    expect(offered(h, 1)).toContain('lookup_weather');

    // kept in the database file, for every process on it
    const reader = openSessionStore({ path: h.dbPath });
    expect((await reader.listToolSwitches()).map((s) => [s.tool, s.on, s.changedBy])).toEqual([
      ['send_email', false, 'test'],
    ]);
    await reader.close();
    const fromPage = await h.runtime.switchTool('send_email', false, { by: 'http' });
    expect(fromPage.why).toContain('switched off on the Tools page (or through the HTTP API) on ');

    expect(await h.runtime.switchTool('send_email', true)).toMatchObject({ on: true });
    await say(h.runtime, 's', 'and now');
    expect(offered(h, 2)).toContain('send_email');
  });

  it('a switch flipped by another runtime on the same file applies to this one from its next turn', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      script: [{ text: 'one' }, { text: 'two' }, { text: 'three' }],
    });
    await say(h.runtime, 's', 'hello');
    expect(offered(h, 0)).toContain('archive_mail');
    const other = secondRuntime(h);
    await other.switchTool('archive_mail', false, { by: 'page' });
    await say(h.runtime, 's', 'tidy up');
    expect(offered(h, 1)).not.toContain('archive_mail');
    expect((await h.runtime.toolsPage()).tools.find((t) => t.name === 'archive_mail')).toMatchObject({
      on: false,
      switched: { on: false, by: 'page' },
    });
    await other.switchTool('archive_mail', true);
    await say(h.runtime, 's', 'again');
    expect(offered(h, 2)).toContain('archive_mail');
  });

  it("refuses to switch a tool the config's disabledTools or denyList fixes, naming the key; a stored on does not turn it on", async () => {
    h = await startHarness({
      providers: [demoProvider()],
      disabledTools: ['archive_mail'],
      denyList: [{ tool: 'send_*', reason: 'no mail from here' }],
      script: [{ text: 'one' }],
    });
    const refused = h.runtime.switchTool('archive_mail', true);
    await expect(refused).rejects.toThrow(FixedByConfigError);
    await expect(refused).rejects.toMatchObject({
      code: 'fixed_by_config',
      tool: 'archive_mail',
      fixedBy: 'disabledTools',
    });
    await expect(refused).rejects.toThrow(/"disabledTools"/);
    const denied = h.runtime.switchTool('send_email', true);
    await expect(denied).rejects.toMatchObject({
      code: 'fixed_by_config',
      fixedBy: 'denyList',
      rule: 'send_*',
    });
    await expect(denied).rejects.toThrow(/"send_\*"/);

    // a switch written straight into the store (an older process, a config changed since) is outranked
    const writer = openSessionStore({ path: h.dbPath });
    await writer.setToolSwitch({ tool: 'archive_mail', on: true });
    await writer.setToolSwitch({ tool: 'send_email', on: true });
    await writer.close();
    await say(h.runtime, 's', 'hello');
    expect(offered(h, 0)).not.toContain('archive_mail');
    expect(offered(h, 0)).not.toContain('send_email');
    const rows = new Map((await h.runtime.toolsPage()).tools.map((t) => [t.name, t]));
    expect(rows.get('archive_mail')).toMatchObject({ on: false, fixed: 'disabledTools' });
    expect(rows.get('send_email')).toMatchObject({ on: false, fixed: 'denyList' });
    expect(rows.get('send_email')?.why).toContain('no mail from here');
    expect(rows.get('lookup_weather')).toMatchObject({ on: true, fixed: null, why: null, status: 'offered' });
  });

  it('refuses an unknown name with the nearest real one, storing nothing', async () => {
    h = await startHarness({ providers: [demoProvider()] });
    const refused = h.runtime.switchTool('send_emial', false);
    await expect(refused).rejects.toThrow(UnknownToolError);
    await expect(refused).rejects.toMatchObject({
      code: 'unknown_tool',
      tool: 'send_emial',
      suggestion: 'send_email',
    });
    await expect(refused).rejects.toThrow(/Did you mean "send_email"\?/);
    const reader = openSessionStore({ path: h.dbPath });
    expect(await reader.listToolSwitches()).toEqual([]);
    await reader.close();
  });

  it('switching on a quarantined tool lifts its quarantine, and the next turn offers it again', async () => {
    h = await startHarness({ providers: [demoProvider()], script: [{ text: 'No mail tool.' }] });
    h.standIn.rejectTool('send_email');
    const first = await say(h.runtime, 's', 'mail someone');
    expect(turnEnd(first).status).toBe('done');
    const quarantined = (await h.runtime.toolsPage()).tools.find((t) => t.name === 'send_email');
    expect(quarantined).toMatchObject({ on: false, fixed: null, status: 'excluded' });
    expect(quarantined?.quarantine).toMatchObject({ provider: 'openai-compatible', model: 'stand-in-model' });
    expect(quarantined?.quarantine?.said).toContain('send_email');

    h.standIn.reset();
    h.standIn.push({ text: 'Mail is back.' });
    expect(await h.runtime.switchTool('send_email', true)).toMatchObject({ on: true, quarantine: null });
    const reader = openSessionStore({ path: h.dbPath });
    expect(await reader.listQuarantined()).toEqual([]);
    await reader.close();
    await say(h.runtime, 's', 'try again');
    expect(offered(h, 0)).toContain('send_email');
  });
});

describe('deleting a session', () => {
  const asks = [
    { match: { lastUserIncludes: 'archive' }, toolCalls: [{ name: 'archive_mail', arguments: { id: 7 } }] },
    { match: { lastUserIncludes: 'archive' }, text: 'Left it.' },
  ];

  it('is refused while its turn runs, here or seen from another runtime, then removes everything stored for it', async () => {
    h = await startHarness({ providers: [demoProvider()], script: [...asks, { text: 'kept' }] });
    await say(h.runtime, 'other', 'hello');
    const other = secondRuntime(h);
    const session = await h.runtime.session('s');
    let approvalId: string | undefined;
    for await (const event of await session.send('archive 7')) {
      if (event.type !== 'approval-request') continue;
      approvalId = event.request.id;
      expect(h.runtime.isRunning('s')).toBe(true);
      expect((await h.runtime.listSessions()).map((s) => [s.id, s.running])).toEqual([
        ['s', true],
        ['other', false],
      ]);
      await expect(h.runtime.deleteSession('s')).rejects.toMatchObject({
        code: 'turn_running',
        runningIn: 'here',
      });
      const elsewhere = other.deleteSession('s');
      await expect(elsewhere).rejects.toMatchObject({ code: 'turn_running', runningIn: h.runtime.owner });
      await expect(elsewhere).rejects.toThrow(/stop the turn or wait for it/);
      session.stop();
    }
    expect(approvalId).toBeDefined();
    expect(h.runtime.isRunning('s')).toBe(false);

    await h.runtime.deleteSession('s');
    const store = h.runtime.options.store;
    expect(await store.getSession('s')).toBeUndefined();
    expect(await store.listMessages('s')).toEqual([]);
    expect(await store.listTurns({ sessionId: 's' })).toEqual([]);
    expect(await store.listToolCalls({ sessionId: 's' })).toEqual([]);
    expect(await store.getApproval(approvalId as string)).toBeUndefined();
    expect((await h.runtime.listSessions()).map((s) => s.id)).toEqual(['other']);
    expect((await store.listAudit({ kind: 'session.deleted' })).map((a) => a.sessionId)).toEqual(['s']);
    await expect(h.runtime.deleteSession('s')).rejects.toMatchObject({ code: 'unknown_session' });

    // a new session may take the id: it starts empty, not with the deleted one's conversation
    h.standIn.reset();
    h.standIn.push({ text: 'fresh' });
    await say(h.runtime, 's', 'hi again');
    const messages = h.standIn.requests[0]?.messages ?? [];
    expect(JSON.stringify(messages)).not.toContain('archive 7');
  });

  it('deletes a session whose unfinished turn was left by a process that is gone', async () => {
    h = await startHarness({ providers: [demoProvider()] });
    const store = h.runtime.options.store;
    await store.createSession({ id: 'orphan' });
    // no process has this pid on this host: the turn's owner is gone
    const turn = await store.startTurn({
      sessionId: 'orphan',
      userText: 'x',
      owner: `${hostname()}:2147483646`,
    });
    await h.runtime.deleteSession('orphan');
    expect(await store.getTurn(turn.id)).toBeUndefined();
  });
});
