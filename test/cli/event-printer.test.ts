import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeApproval, printEvent } from '../../src/cli/event-printer.js';
import type { RuntimeEvent } from '../../src/core/events.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir: string;
let standIn: StandIn | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-printer-'));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Runs one `chat -m` whose model asks for `write_file` with `args`, then says the result it read. */
async function refusedChat(args: Record<string, string>, flags: string[]) {
  standIn = await startStandIn({
    family: 'openai',
    script: [{ toolCalls: [{ name: 'write_file', arguments: args }] }, { echo: 'lastToolResult' }],
  });
  const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', join(dir, 't.db')];
  return toolseamInProcessWithoutKeys(['chat', '-m', 'save a note', ...base, ...flags], dir);
}

/** The `✗` lines a person read on stderr. */
function crossLines(stderr: string): string[] {
  return stderr.split('\n').filter((l) => l.includes('✗'));
}

describe('a refused call as the person reads it', () => {
  it('plan mode: the reason once, without the advice to the model (which the model still reads)', async () => {
    const r = await refusedChat({ path: 'notes.txt', content: 'buy milk' }, ['--plan']);
    expect(crossLines(r.stderr)).toEqual([
      '  ✗ write_file not run: this session is in plan mode, where only read-only tools run',
    ]);
    expect(r.stdout).toContain(
      '`write_file` was blocked by the read-only gate (this session is in plan mode, where only read-only tools run). Do not retry the write',
    );
  });

  it('--approve deny: the reason once', async () => {
    const r = await refusedChat({ path: 'notes.txt', content: 'buy milk' }, ['--approve', 'deny']);
    expect(crossLines(r.stderr)).toEqual([
      '  ✗ write_file not run: this session refuses every call that needs approval',
    ]);
  });

  it("a tool's own refusal: the tool's name is not said twice", async () => {
    const r = await refusedChat({ path: 'notes.txt' }, []);
    const [line] = crossLines(r.stderr);
    expect(line).toMatch(/^ {2}✗ write_file not run: the call leaves out an argument/);
    expect(line).not.toMatch(/was not run/);
    expect(r.stdout).toContain('write_file was not run: the call leaves out an argument');
  });
});

describe('what a server or model chose is printed with its control characters shown, not acted on', () => {
  const ESC = '\u001b';

  it('an approval request: a tool name cannot erase the question or start a line of its own', () => {
    const text = describeApproval({
      id: 'apr-1',
      sessionId: 's',
      turnId: 't',
      callId: 'c',
      tool: `mcp/evil/wipe${ESC}[2K\r? read_file wants to run (risk: safe)\n  arguments: {}`,
      arguments: { path: `notes${ESC}[8m.txt\u009b` },
      risk: 'destructive',
      meaning: 'Approving runs mcp/evil/wipe with these arguments.',
      digest: 'd',
      createdAt: '2025-01-01T00:00:00Z',
      leafTitle: `leaf\rtitle`,
    });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text.split('\n')).toEqual([
      '',
      '? mcp/evil/wipe\\u001b[2K\\u000d? read_file wants to run (risk: safe)\\u000a  arguments: {} wants to run ' +
        '[subagent: leaf\\u000dtitle] (risk: destructive)',
      '  arguments: {',
      '    "path": "notes\\u001b[8m.txt\\u009b"',
      '  }',
      '  Approving runs mcp/evil/wipe with these arguments.',
      '  always: not offered (an earlier version of toolseam asked this, without saying what it would cover)',
      '  approval id: apr-1',
    ]);
  });

  it('an approval request says what "always" covers, and a notice, on one line each, codes shown', () => {
    const text = describeApproval({
      id: 'apr-2',
      sessionId: 's',
      turnId: 't',
      callId: 'c',
      tool: 'bash',
      arguments: { command: 'git status' },
      risk: 'destructive',
      meaning: 'Approving runs bash once with the arguments shown.',
      digest: 'd',
      createdAt: '2025-01-01T00:00:00Z',
      always: { kind: 'command', words: ['git', 'status'], summary: `run \`git status …\`${ESC}[2K\nx` },
      notice: 'asked again:\nthe old permission was withdrawn',
    });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text.split('\n').slice(5)).toEqual([
      '  note: asked again: the old permission was withdrawn',
      '  Approving runs bash once with the arguments shown.',
      '  always: run `git status …` [2K x in this session without asking',
      '  approval id: apr-2',
    ]);
  });

  it("the model's text keeps its lines; an escape sequence in it is shown", () => {
    const out = new PassThrough();
    const info = new PassThrough();
    const state = { midLine: false };
    const events: RuntimeEvent[] = [
      { type: 'text-delta', text: `red ${ESC}[31mtext${ESC}[0m\r\nnext\n` },
      { type: 'notice', message: `server ${ESC}]0;title\u0007 restarted` },
    ] as RuntimeEvent[];
    for (const event of events) printEvent(event, { out, info }, state);
    expect(out.read().toString()).toBe('red \\u001b[31mtext\\u001b[0m\nnext\n');
    expect(info.read().toString()).toBe('(server \\u001b]0;title\\u0007 restarted)\n');
  });

  it('a chat: the refused call of a tool whose name holds escapes, and a model error body', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [
        { text: `look${ESC}[2K`, toolCalls: [{ name: `evil${ESC}[2Kname`, arguments: {} }] },
        { error: { status: 400, message: `key invalid${ESC}[2K\rall fine` } },
      ],
    });
    const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', join(dir, 't.db')];
    const r = await toolseamInProcessWithoutKeys(['chat', '-m', 'go', ...base], dir);
    expect(r.stdout + r.stderr).not.toContain(ESC);
    expect(r.stdout).toContain('look\\u001b[2K');
    expect(crossLines(r.stderr)[0]).toContain('evil\\u001b[2Kname');
    expect(r.stderr).toContain('answered HTTP 400: key invalid\\u001b[2K');
  });
});

describe('a model call that is retried, as the person reads it', () => {
  it('one line per wait, before the answer, naming the provider, the failure, the wait and the attempt', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [{ error: { status: 429, retryAfter: 0 } }, { text: 'Hello there.' }],
    });
    const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', join(dir, 't.db')];
    const r = await toolseamInProcessWithoutKeys(['chat', '-m', 'hi', ...base], dir);
    expect(r.stdout).toContain('Hello there.');
    expect(r.stderr.split('\n').filter((l) => l.includes('trying again'))).toEqual([
      '(openai-compatible: rate limited (HTTP 429); trying again now, attempt 2 of 3)',
    ]);
  });

  it("a subagent leaf's wait: one line naming the leaf, among the leaf's other lines", async () => {
    const leafTask = 'Count the open tickets';
    const parent = { match: { lastUserIncludes: 'morning round' } };
    standIn = await startStandIn({
      family: 'openai',
      script: [
        {
          ...parent,
          toolCalls: [
            {
              name: 'subagent_run',
              arguments: {
                tasks: [
                  {
                    task: leafTask,
                    title: 'Tickets',
                    objective: `Finish this: ${leafTask}`,
                    output_format: 'One short sentence of plain text',
                    boundary: 'Touch nothing beyond what the task names',
                  },
                ],
              },
            },
          ],
        },
        { match: { lastUserIncludes: `Task: ${leafTask}` }, error: { status: 429, retryAfter: 0 } },
        { match: { lastUserIncludes: `Task: ${leafTask}` }, text: '12 tickets' },
        { ...parent, text: 'All done.' },
      ],
    });
    const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', join(dir, 't.db')];
    const r = await toolseamInProcessWithoutKeys(['chat', '-m', 'do the morning round', ...base], dir);
    expect(r.stdout).toContain('All done.');
    const leafLines = r.stderr.split('\n').filter((l) => l.includes('[Tickets]'));
    expect(leafLines).toEqual([
      '  ◦ [Tickets] started',
      '  ◦ [Tickets] waiting: openai-compatible: rate limited (HTTP 429); trying again now, attempt 2 of 3',
      '  ◦ [Tickets] done',
    ]);
  });

  it('a wait in seconds, rounded up, and a failure without an HTTP status', () => {
    const out = new PassThrough();
    const info = new PassThrough();
    const state = { midLine: false };
    const events: RuntimeEvent[] = [
      {
        type: 'model-retry',
        provider: 'anthropic',
        status: 529,
        reason: 'overloaded',
        attempt: 2,
        maxAttempts: 3,
        waitMs: 7_200,
      },
      {
        type: 'model-retry',
        provider: 'bedrock',
        reason: 'the connection was lost',
        attempt: 3,
        maxAttempts: 3,
        waitMs: 400,
      },
    ];
    for (const event of events) printEvent(event, { out, info }, state);
    expect(info.read().toString().split('\n')).toEqual([
      '(anthropic: overloaded (HTTP 529); trying again in 8 s, attempt 2 of 3)',
      '(bedrock: the connection was lost; trying again in 0.4 s, attempt 3 of 3)',
      '',
    ]);
  });
});

describe('arguments nested deeper than JSON.stringify can write', () => {
  it('are shown on one line in an approval request and a tool line, not thrown', () => {
    const deep = JSON.parse(`{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`) as Record<string, never>;
    const text = describeApproval({
      id: 'apr-1',
      sessionId: 's',
      turnId: 't',
      callId: 'c',
      tool: 'make_tree',
      arguments: deep,
      risk: 'caution',
      meaning: 'Approving runs make_tree with these arguments.',
      digest: 'd',
      createdAt: '2025-01-01T00:00:00Z',
    });
    expect(text).toContain('  arguments: {"a":[[[[');
    const out = {
      text: '',
      write(t: string) {
        this.text += t;
        return true;
      },
    };
    printEvent(
      { type: 'tool-call-start', callId: 'c', tool: 'make_tree', arguments: deep },
      { out: out as never, info: out as never },
      { midLine: false },
    );
    expect(out.text).toMatch(/^· make_tree \{"a":\[\[\[.*…\n$/);
  });
});
