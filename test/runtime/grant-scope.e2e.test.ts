import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { ApprovalDecision } from '../../src/core/approval.js';
import type { RuntimeEvent } from '../../src/core/events.js';
import { alwaysLine, type GrantScope } from '../../src/core/grant-scope.js';
import { openSessionStore } from '../../src/store/index.js';
import type { ScriptTurn } from '../../src/testing/index.js';
import { builtinProviders } from '../../src/tools/builtin/index.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { callEnds, type RuntimeHarness, startHarness } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Ask = Extract<RuntimeEvent, { type: 'approval-request' }>;

/** A workspace with the real built-in tools, and a runtime on the stand-in playing `script`. */
async function withBuiltins(script: readonly ScriptTurn[]) {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-grant-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const books = openSessionStore({ path: join(dir, 'books.db') });
  onTestFinished(() => books.close());
  h = await startHarness({
    providers: builtinProviders({ workspace: [dir], memory: books, tasks: books }),
    workspace: [dir],
    script,
  });
  return { dir, runtime: h.runtime };
}

/** Runs one turn, answering every question with `answer`; returns the questions asked and the events. */
async function turn(events: AsyncIterable<RuntimeEvent>, answer: (ask: Ask) => ApprovalDecision) {
  const asked: Ask[] = [];
  const all: RuntimeEvent[] = [];
  for await (const event of events) {
    all.push(event);
    if (event.type === 'approval-request') {
      asked.push(event);
      await h?.runtime.respond(event.request.id, answer(event), { digest: event.request.digest });
    }
  }
  return { asked, events: all };
}

const bash = (command: string): ScriptTurn => ({ toolCalls: [{ name: 'bash', arguments: { command } }] });
const done: ScriptTurn = { text: 'done' };

describe('"always" approves only what the person saw', () => {
  it('always on `ls` does not let a chained rm and a redirection run unasked', async () => {
    const { dir, runtime } = await withBuiltins([
      bash('ls'),
      done,
      bash('rm -rf ./keep; echo X > important.txt'),
      done,
    ]);
    mkdirSync(join(dir, 'keep'));
    writeFileSync(join(dir, 'keep', 'a.txt'), 'kept');
    const session = await runtime.session('s');
    const first = await turn(await session.send('list'), () => ({ kind: 'approve', always: 'session' }));
    expect(first.asked).toHaveLength(1);
    const second = await turn(await session.send('clean up'), () => ({ kind: 'deny' }));
    expect(second.asked).toHaveLength(1);
    expect(second.asked[0]?.request.arguments).toEqual({ command: 'rm -rf ./keep; echo X > important.txt' });
    expect(readFileSync(join(dir, 'keep', 'a.txt'), 'utf8')).toBe('kept');
    expect(existsSync(join(dir, 'important.txt'))).toBe(false);
  });

  it('always on `echo` covers echo with other arguments, and nothing that chains, redirects or substitutes', async () => {
    const { dir, runtime } = await withBuiltins([
      bash('echo one'),
      done,
      bash('echo two'),
      done,
      bash('echo three > out.txt'),
      done,
      bash('echo $(touch pwned)'),
      done,
      bash('echo four; touch pwned'),
      done,
      bash('FOO=1 echo five'),
      done,
      bash('printf six'),
      done,
    ]);
    const session = await runtime.session('s');
    const first = await turn(await session.send('1'), () => ({ kind: 'approve', always: 'session' }));
    expect(first.asked[0]?.request.always).toEqual({
      kind: 'command',
      words: ['echo'],
      summary: 'run `echo …` (any further arguments)',
    });
    expect(alwaysLine(first.asked[0]?.request.always as GrantScope, 'session')).toBe(
      'always: run `echo …` (any further arguments) in this session without asking',
    );
    const ran = await turn(await session.send('2'), () => ({ kind: 'deny' }));
    expect(ran.asked).toHaveLength(0);
    expect(callEnds(ran.events)[0]).toMatchObject({ isError: false, content: 'two' });
    for (const text of ['3', '4', '5', '6', '7']) {
      const next = await turn(await session.send(text), () => ({ kind: 'deny' }));
      expect(next.asked).toHaveLength(1);
    }
    expect(existsSync(join(dir, 'out.txt'))).toBe(false);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  it('a chained command can be approved "always" for itself only: the same text runs unasked, another does not', async () => {
    const { dir, runtime } = await withBuiltins([
      bash('touch a.txt && touch b.txt'),
      done,
      bash('touch a.txt && touch b.txt'),
      done,
      bash('touch a.txt && touch c.txt'),
      done,
    ]);
    const session = await runtime.session('s');
    const first = await turn(await session.send('1'), () => ({ kind: 'approve', always: 'session' }));
    const offered = first.asked[0]?.request.always;
    expect(offered).toMatchObject({ kind: 'exact-command', command: 'touch a.txt && touch b.txt' });
    expect(alwaysLine(offered as GrantScope, 'session')).toBe(
      'always: run exactly `touch a.txt && touch b.txt` again in this session without asking ' +
        '(it runs several commands (;, &&, ||, | or &), so "always" covers this exact command only)',
    );
    expect((await turn(await session.send('2'), () => ({ kind: 'deny' }))).asked).toHaveLength(0);
    expect((await turn(await session.send('3'), () => ({ kind: 'deny' }))).asked).toHaveLength(1);
    expect(existsSync(join(dir, 'c.txt'))).toBe(false);
  });

  it('"always" for good is scoped the same way, in every session', async () => {
    const { dir, runtime } = await withBuiltins([
      bash('ls'),
      done,
      bash('ls -a'),
      done,
      bash('ls; touch pwned'),
      done,
    ]);
    const first = await turn(await (await runtime.session('a')).send('1'), () => ({
      kind: 'approve',
      always: 'forever',
    }));
    expect(alwaysLine(first.asked[0]?.request.always as GrantScope, 'forever')).toBe(
      'always (every session): run `ls …` (any further arguments) without asking',
    );
    expect(
      (await turn(await (await runtime.session('b')).send('2'), () => ({ kind: 'deny' }))).asked,
    ).toHaveLength(0);
    expect(
      (await turn(await (await runtime.session('c')).send('3'), () => ({ kind: 'deny' }))).asked,
    ).toHaveLength(1);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
    const [grant] = await runtime.options.store.listGrants();
    expect(grant).toMatchObject({
      tool: 'bash',
      sessionId: undefined,
      scope: { kind: 'command', words: ['ls'] },
    });
  });

  it('always on a written file covers files directly in its folder, not a subfolder or another folder', async () => {
    const write = (path: string): ScriptTurn => ({
      toolCalls: [{ name: 'write_file', arguments: { path, content: 'x' } }],
    });
    const { dir, runtime } = await withBuiltins([
      write('notes/a.txt'),
      done,
      write('notes/b.txt'),
      done,
      write('notes/sub/c.txt'),
      done,
      write('notes/../d.txt'),
      done,
      write('other/e.txt'),
      done,
    ]);
    const session = await runtime.session('s');
    const first = await turn(await session.send('1'), () => ({ kind: 'approve', always: 'session' }));
    expect(first.asked[0]?.request.always).toEqual({
      kind: 'folder',
      folder: join(realpathSync(dir), 'notes'),
      summary: 'run write_file on files directly in `notes/` (not in its subfolders)',
    });
    expect((await turn(await session.send('2'), () => ({ kind: 'deny' }))).asked).toHaveLength(0);
    expect(readFileSync(join(dir, 'notes', 'b.txt'), 'utf8')).toBe('x');
    for (const text of ['3', '4', '5']) {
      expect((await turn(await session.send(text), () => ({ kind: 'deny' }))).asked).toHaveLength(1);
    }
    expect(existsSync(join(dir, 'd.txt'))).toBe(false);
  });

  it('a written folder swapped for a link elsewhere is no longer the folder that was granted', async () => {
    const write = (path: string): ScriptTurn => ({
      toolCalls: [{ name: 'write_file', arguments: { path, content: 'x' } }],
    });
    const { dir, runtime } = await withBuiltins([write('notes/a.txt'), done, write('notes/b.txt'), done]);
    const session = await runtime.session('s');
    await turn(await session.send('1'), () => ({ kind: 'approve', always: 'session' }));
    mkdirSync(join(dir, 'elsewhere'));
    renameSync(join(dir, 'notes'), join(dir, 'old-notes'));
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'notes'));
    expect((await turn(await session.send('2'), () => ({ kind: 'deny' }))).asked).toHaveLength(1);
    expect(existsSync(join(dir, 'elsewhere', 'b.txt'))).toBe(false);
  });
});

describe('other tools: the scope a tool declares, else exactly the same arguments', () => {
  const archive = (id: number): ScriptTurn => ({ toolCalls: [{ name: 'archive_mail', arguments: { id } }] });
  const send = (to: string, body: string): ScriptTurn => ({
    toolCalls: [{ name: 'send_email', arguments: { to, body } }],
  });

  it('a tool that declares none: "always" covers the same arguments only', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [archive(7), done, archive(7), done, archive(8), done],
    });
    const session = await h.runtime.session('s');
    const first = await turn(await session.send('1'), () => ({ kind: 'approve', always: 'session' }));
    expect(first.asked[0]?.request.always).toMatchObject({
      kind: 'exact-arguments',
      summary: 'run archive_mail again with exactly `{"id":7}`',
    });
    expect((await turn(await session.send('2'), () => ({ kind: 'deny' }))).asked).toHaveLength(0);
    expect((await turn(await session.send('3'), () => ({ kind: 'deny' }))).asked).toHaveLength(1);
    expect(counts.get('archive_mail')).toBe(2);
  });

  it('a tool that declares its scope: the same values of those arguments, the others free', async () => {
    const counts: RunCounts = new Map();
    h = await startHarness({
      providers: [demoProvider(counts)],
      script: [
        send('ann@example.com', 'hi'),
        done,
        send('ann@example.com', 'and again'),
        done,
        send('bob@example.com', 'hi'),
        done,
        // the tool reads any spelling of its keys: so does the scope
        { toolCalls: [{ name: 'send_email', arguments: { To: 'bob@example.com', body: 'x' } }] },
        done,
        { toolCalls: [{ name: 'send_email', arguments: { TO: 'ann@example.com', body: 'y' } }] },
        done,
        // two spellings at once: which one counts is not guessed (and the tool refuses the call)
        {
          toolCalls: [
            { name: 'send_email', arguments: { to: 'ann@example.com', To: 'bob@example.com', body: 'z' } },
          ],
        },
        done,
      ],
    });
    const session = await h.runtime.session('s');
    const first = await turn(await session.send('1'), () => ({ kind: 'approve', always: 'session' }));
    expect(first.asked[0]?.request.always).toEqual({
      kind: 'arguments',
      values: { to: 'ann@example.com' },
      summary: 'run send_email with to = "ann@example.com" (any other arguments)',
    });
    expect((await turn(await session.send('2'), () => ({ kind: 'deny' }))).asked).toHaveLength(0);
    expect((await turn(await session.send('3'), () => ({ kind: 'deny' }))).asked).toHaveLength(1);
    expect((await turn(await session.send('4'), () => ({ kind: 'deny' }))).asked).toHaveLength(1);
    expect((await turn(await session.send('5'), () => ({ kind: 'deny' }))).asked).toHaveLength(0);
    const both = await turn(await session.send('6'), () => ({ kind: 'deny' }));
    expect(callEnds(both.events)[0]).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(counts.get('send_email')).toBe(3);
  });
});
