import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { RuntimeEvent } from '../../src/core/events.js';
import type { ToolProvider } from '../../src/core/tool.js';
import { openSessionStore } from '../../src/store/index.js';
import { builtinProviders } from '../../src/tools/builtin/index.js';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { alive } from '../support/process-alive.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
const echo = { echo: 'lastToolResult' as const };

/** The result text the model read for the first call of the turn. */
function firstResult(events: RuntimeEvent[]): string {
  return callEnds(events)[0]?.content ?? '';
}

describe('gates: each refusal reaches the model with its reason', () => {
  it('deny-list', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      denyList: [{ tool: 'archive_*', reason: 'archiving is disabled on this machine' }],
      script: [call('archive_mail', { id: 3 }), echo],
    });
    const events = await collect(await (await h.runtime.session('s')).send('archive mail 3'));
    expect(firstResult(events)).toContain('security policy (archiving is disabled on this machine)');
    expect(callEnds(events)[0]?.refusedBy).toBe('deny_list');
    expect(events.some((e) => e.type === 'approval-request')).toBe(false);
    expect(counts.size).toBe(0);
  });

  it('deny-list and hooks: a glob covers a server tool whose name holds a line break', async () => {
    let invoked = 0;
    const server: ToolProvider = {
      name: 'mcp/srv',
      app: 'srv',
      own: false,
      async listTools() {
        return [
          {
            name: 'mcp/srv/wipe\nall',
            description: 'Wipe everything on the server.',
            parameters: { type: 'object', properties: {} },
            risk: 'caution',
            requiresApproval: true,
          },
        ];
      },
      async invoke() {
        invoked++;
        return { content: 'wiped', isError: false };
      },
    };
    h = await startHarness({
      providers: [server],
      approvals: { policy: 'auto' },
      denyList: [{ tool: 'mcp/srv/*', reason: 'the srv server is read by people only' }],
      script: [call('mcp_srv_wipe_all', {}), echo],
    });
    const events = await collect(await (await h.runtime.session('s')).send('wipe it'));
    expect(callEnds(events)[0]).toMatchObject({ refusedBy: 'deny_list' });
    expect(firstResult(events)).toContain('the srv server is read by people only');
    await h.close();
    h = await startHarness({
      providers: [server],
      approvals: { policy: 'auto' },
      hooks: [{ match: 'mcp/srv/wipe?all', command: 'cat >/dev/null; echo "BLOCKED: no wiping"' }],
      script: [call('mcp_srv_wipe_all', {}), echo],
    });
    const hooked = await collect(await (await h.runtime.session('s')).send('wipe it'));
    expect(callEnds(hooked)[0]).toMatchObject({ refusedBy: 'hook' });
    expect(invoked).toBe(0);
  });

  it('task mode: plan runs read-only tools only', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [
        {
          toolCalls: [
            { name: 'lookup_weather', arguments: { city: 'Oslo' } },
            { name: 'send_email', arguments: { to: 'a@b.example', body: 'hi' } },
          ],
        },
        { text: 'ok' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('plan it', { mode: 'plan' }));
    const byTool = new Map(callEnds(events).map((e) => [e.tool, e.content]));
    expect(byTool.get('lookup_weather')).toBe('Sunny in Oslo.');
    expect(byTool.get('send_email')).toContain('read-only gate (this session is in plan mode');
    expect(counts.get('send_email')).toBeUndefined();
  });

  it('task mode: plan refuses the safe tools that write memory or tasks, and runs those that read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-plan-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const store = openSessionStore({ path: join(dir, 'books.db') });
    onTestFinished(() => store.close());
    h = await startHarness({
      providers: builtinProviders({ workspace: [dir], memory: store, tasks: store }),
      script: [
        {
          toolCalls: [
            { name: 'memory_save', arguments: { text: 'Sam is allergic to peanuts' } },
            { name: 'task_create', arguments: { tasks: [{ title: 'Buy milk' }] } },
            { name: 'task_update', arguments: { id: 'task-1', status: 'done' } },
            { name: 'memory_list', arguments: {} },
            { name: 'task_list', arguments: {} },
          ],
        },
        { text: 'ok' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('plan it', { mode: 'plan' }));
    const byTool = new Map(callEnds(events).map((e) => [e.tool, e]));
    for (const tool of ['memory_save', 'task_create', 'task_update']) {
      expect(byTool.get(tool)).toMatchObject({ refusedBy: 'task_mode' });
    }
    expect(byTool.get('memory_list')?.refusedBy).toBeUndefined();
    expect(byTool.get('task_list')?.refusedBy).toBeUndefined();
    expect(await store.listMemories()).toEqual([]);
    expect(await store.listTasks()).toEqual([]);
  });

  it('hook: a BLOCKED line refuses with its reason, never as a decline', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      hooks: [
        { match: 'archive_*', command: 'cat >/dev/null; echo "BLOCKED: archiving is off on weekends"' },
      ],
      script: [call('archive_mail', { id: 1 }), echo],
    });
    const events = await collect(await (await h.runtime.session('s')).send('archive'));
    expect(firstResult(events)).toContain('policy hook (archiving is off on weekends)');
    expect(firstResult(events)).not.toContain('declined');
  });

  it.each([
    ['exits 2 with the reason on stderr', 'echo "archiving is off on weekends" >&2; exit 2'],
    [
      'prints a coloured BLOCKED line',
      `printf '\\033[1;31mBLOCKED: archiving is off on weekends\\033[0m\\n'`,
    ],
    [
      'exits 2 with a coloured stderr',
      `printf '\\033[33marchiving is off on weekends\\033[0m\\n' >&2; exit 2`,
    ],
  ])('hook: one that %s blocks on purpose, and the model reads its plain reason', async (_, command) => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      hooks: [{ match: 'archive_*', command: `cat >/dev/null; ${command}` }],
      script: [call('archive_mail', { id: 1 }), echo],
    });
    const events = await collect(await (await h.runtime.session('s')).send('archive'));
    expect(callEnds(events)[0]).toMatchObject({ refusedBy: 'hook' });
    expect(firstResult(events)).toContain('blocked by a policy hook (archiving is off on weekends)');
    expect(firstResult(events)).not.toMatch(/failed to run|\u001b/);
    expect(counts.size).toBe(0);
  });

  it('hook: stopping the turn while a hook runs stops the hook, and the call ends as stopped', async () => {
    const counts: RunCounts = new Map();
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-hook-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const started = join(dir, 'started');
    h = await startHarness({
      providers: [demoProvider(counts)],
      hooks: [{ command: `cat >/dev/null; touch '${started}'; sleep 60`, timeoutMs: 120_000 }],
      script: [call('archive_mail', { id: 1 }), echo],
    });
    const session = await h.runtime.session('s');
    const turn = collect(await session.send('archive'));
    await expect.poll(() => existsSync(started), { timeout: 10_000 }).toBe(true);
    session.stop();
    const events = await turn;
    expect(turnEnd(events).status).toBe('stopped');
    expect(callEnds(events)[0]).toMatchObject({ refusedBy: 'stopped', notRun: 'stopped' });
    expect(counts.size).toBe(0);
  }, 30_000);

  it('hook: one that leaves a process in the background answers when it exits, and that process is ended', async () => {
    const counts: RunCounts = new Map();
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-hook-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const pidFile = join(dir, 'child.pid');
    const hook = join(dir, 'check-call.sh');
    // archive_mail may run; any other tool is refused with the hook's words
    writeFileSync(
      hook,
      `#!/bin/sh\nread -r call\nsleep 30 &\necho $! >> '${pidFile}'\ncase "$call" in *archive_mail*) exit 0;; esac\necho "only archiving today" >&2\nexit 2\n`,
      { mode: 0o755 },
    );
    h = await startHarness({
      providers: [demoProvider(counts)],
      approvals: { policy: 'auto' },
      hooks: [{ command: hook }],
      script: [
        {
          toolCalls: [
            { name: 'archive_mail', arguments: { id: 1 } },
            { name: 'send_email', arguments: { to: 'a@b.example', body: 'hi' } },
          ],
        },
        { text: 'done' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('archive and mail'));
    const byTool = new Map(callEnds(events).map((e) => [e.tool, e]));
    expect(byTool.get('archive_mail')?.content).toBe('archived 1');
    expect(byTool.get('send_email')).toMatchObject({ refusedBy: 'hook' });
    expect(byTool.get('send_email')?.content).toContain('blocked by a policy hook (only archiving today)');
    expect(counts.get('archive_mail')).toBe(1);
    expect(counts.get('send_email')).toBeUndefined();
    const children = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    expect(children).toHaveLength(2);
    for (const pid of children) await expect.poll(() => alive(pid), { timeout: 10_000 }).toBe(false);
  });

  it('agent tool list: a tool outside it is withheld from the offer and refused when called', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      agents: { reader: { tools: ['lookup_*'] } },
      script: [call('send_email', { to: 'a@b.example', body: 'x' }), echo],
    });
    const events = await collect(await (await h.runtime.session('s', { agent: 'reader' })).send('mail'));
    expect(h.standIn.requests[0]?.tools.map((t) => t.name)).toEqual(['lookup_weather']);
    expect(firstResult(events)).toContain('the agent "reader" may use only the tools on its tool list');
    expect(callEnds(events)[0]?.refusedBy).toBe('agent_tools');
  });

  it('unknown tool', async () => {
    h = await startHarness({ providers: [demoProvider()], script: [call('make_coffee', {}), echo] });
    const events = await collect(await (await h.runtime.session('s')).send('coffee'));
    expect(firstResult(events)).toContain('there is no tool named make_coffee');
    expect(callEnds(events)[0]?.refusedBy).toBe('unknown_tool');
  });

  it('withdrawn: a tool switched off after the turn began is not run', async () => {
    const counts: RunCounts = new Map();
    let registry: RuntimeHarness['registry'] | undefined;
    const switcher = defineTool({
      name: 'switch_off_archive',
      description: 'Switch the archive tool off (a stand-in for the person using the Tools page).',
      risk: 'safe',
      handler: () => {
        registry?.setEnabled('archive_mail', false);
        return 'switched off';
      },
    });
    h = await startHarness({
      providers: [demoProvider(counts), inProcessProvider({ name: 'switcher', tools: [switcher] })],
      approvals: { policy: 'auto' },
      script: [call('switch_off_archive', {}), call('archive_mail', { id: 2 }), echo],
    });
    registry = h.registry;
    const events = await collect(await (await h.runtime.session('s')).send('archive'));
    expect(callEnds(events)[1]?.content).toContain(
      'no longer available: it was switched off after this turn began',
    );
    expect(counts.get('archive_mail')).toBeUndefined();
  });
});

describe('an agent or task mode the runtime does not know', () => {
  it('is refused when the message is sent, before any turn is stored (a mistyped mode never runs as agent mode)', async () => {
    h = await startHarness({ providers: [demoProvider()], agents: { reader: { tools: ['lookup_*'] } } });
    const store = h.runtime.options.store;
    const session = await h.runtime.session('s');
    await expect(session.send('tidy up', { mode: 'Plan' as never })).rejects.toThrow(
      expect.objectContaining({
        code: 'unknown_mode',
        message: expect.stringContaining('"agent" or "plan"'),
      }),
    );
    await expect((await h.runtime.session('s', { agent: 'writer' })).send('tidy up')).rejects.toThrow(
      expect.objectContaining({ code: 'unknown_agent', message: expect.stringContaining('reader') }),
    );
    expect(await store.listTurns({ sessionId: 's' })).toEqual([]);
    expect(h.standIn.requests).toHaveLength(0);
  });
});

describe('preflight: a call that cannot run asks nobody', () => {
  it('missing required argument (judged on the declared schema)', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [call('send_email', { to: 'a@b.example' }), echo],
    });
    const events = await collect(await (await h.runtime.session('s')).send('mail'));
    expect(events.some((e) => e.type === 'approval-request')).toBe(false);
    expect(callEnds(events)[0]).toMatchObject({ notRun: 'missing_arguments', isError: true });
    expect(firstResult(events)).toContain('body');
    expect(counts.size).toBe(0);
  });

  it('a defined tool given its keys in another convention is asked about and runs, as its reader accepts them', async () => {
    let ran: unknown;
    const remind = defineTool({
      name: 'set_reminder',
      description: 'Set a reminder.',
      fields: { due_date: field.string(), note_text: field.string({ maxLength: 200 }) },
      handler: (args) => {
        ran = args;
        return `reminder for ${args.due_date}`;
      },
    });
    h = await startHarness({
      providers: [inProcessProvider({ name: 'reminders', tools: [remind] })],
      script: [call('set_reminder', { dueDate: 'friday', NoteText: 'call mum' }), echo],
    });
    const events: RuntimeEvent[] = [];
    for await (const event of await (await h.runtime.session('s')).send('remind me')) {
      events.push(event);
      if (event.type === 'approval-request') {
        await h.runtime.respond(event.request.id, { kind: 'approve' }, { digest: event.request.digest });
      }
    }
    expect(events.some((e) => e.type === 'approval-request')).toBe(true);
    expect(callEnds(events)[0]).toMatchObject({ isError: false, content: 'reminder for friday' });
    expect(ran).toEqual({ due_date: 'friday', note_text: 'call mum' });
  });

  it('a defined tool given its keys in another letter case is asked about, not refused as missing them', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [call('send_email', { TO: 'a@b.example', Body: 'hi' }), echo],
    });
    const events: RuntimeEvent[] = [];
    for await (const event of await (await h.runtime.session('s')).send('mail')) {
      events.push(event);
      if (event.type === 'approval-request') {
        await h.runtime.respond(event.request.id, { kind: 'approve' }, { digest: event.request.digest });
      }
    }
    expect(events.some((e) => e.type === 'approval-request')).toBe(true);
    expect(callEnds(events)[0]).toMatchObject({ isError: false, content: 'sent to a@b.example' });
    expect(counts.get('send_email')).toBe(1);
  });

  it('a tool whose provider reads keys exactly is refused when a required key is spelled another way', async () => {
    let invoked = 0;
    const exact: ToolProvider = {
      name: 'exact',
      app: 'exact-app',
      own: false,
      async listTools() {
        return [
          {
            name: 'set_alarm',
            description: 'Set an alarm.',
            parameters: {
              type: 'object',
              properties: { due_date: { type: 'string' } },
              required: ['due_date'],
            },
            risk: 'caution',
            requiresApproval: true,
          },
        ];
      },
      async invoke() {
        invoked++;
        return { content: 'set', isError: false };
      },
    };
    h = await startHarness({ providers: [exact], script: [call('set_alarm', { dueDate: 'friday' }), echo] });
    const events = await collect(await (await h.runtime.session('s')).send('alarm'));
    expect(events.some((e) => e.type === 'approval-request')).toBe(false);
    expect(callEnds(events)[0]).toMatchObject({ notRun: 'missing_arguments', isError: true });
    expect(firstResult(events)).toContain('due_date');
    expect(invoked).toBe(0);
  });

  it("the tool's own declared refusal, with its hint", async () => {
    h = await startHarness({
      providers: [demoProvider()],
      script: [call('send_email', { to: 'x@blocked.example', body: 'hi' }), echo],
    });
    const events = await collect(await (await h.runtime.session('s')).send('mail'));
    expect(events.some((e) => e.type === 'approval-request')).toBe(false);
    expect(callEnds(events)[0]).toMatchObject({ notRun: 'refused_by_tool' });
    expect(firstResult(events)).toContain('x@blocked.example is on the blocked list');
    expect(firstResult(events)).toContain('Pick another recipient.');
  });

  it('an unattended run still gives the tool’s own reason first', async () => {
    h = await startHarness({
      providers: [demoProvider()],
      approvals: { unattended: true },
      script: [
        {
          toolCalls: [
            { name: 'send_email', arguments: { to: 'x@blocked.example', body: 'hi' } },
            { name: 'send_email', arguments: { to: 'ok@fine.example', body: 'hi' } },
          ],
        },
        echo,
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('mail'));
    const [first, second] = callEnds(events);
    expect(first?.content).toContain('blocked list');
    expect(second?.content).toContain('unattended');
    expect(second?.refusedBy).toBe('unattended');
  });
});
