import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processOwner } from '../../src/runtime/resume/turn-owner.js';
import { openSessionStore } from '../../src/store/index.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { npmStdio } from '../support/mcp-servers.js';
import { spawnToolseam, spawnToolseamWithoutStderr, toolseamNodeArgs, until } from './spawn-toolseam.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir: string;
let standIn: StandIn | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-cli-'));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI's main in this process in `dir`, with no provider key but those `env` sets. */
function run(args: string[], env: Record<string, string | undefined> = {}) {
  return toolseamInProcessWithoutKeys(args, dir, env);
}

/** Starts the CLI in `dir` as a child; resolves with exit code and output (`input` gives it a stdin to type into). */
function cli(args: string[], env: Record<string, string | undefined> = {}, input = false) {
  return spawnToolseam(args, dir, env, input);
}

/** util-linux `script`, which runs a command on a pseudo-terminal (so readline reads keys, Ctrl-C among them). */
const hasScript = /util-linux/.test(spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout ?? '');

/** Runs the CLI in `dir` on a pseudo-terminal; what is written to `proc.stdin` is typed. */
function cliOnTerminal(args: string[]) {
  const quote = (a: string): string => `'${a.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, ...toolseamNodeArgs(args)].map(quote).join(' ');
  // -e: exit with the command's status; the terminal's output (stdout and stderr) comes on stdout.
  const proc = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: dir,
    env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let shown = '';
  proc.stdout.on('data', (d: Buffer) => {
    shown += d.toString();
  });
  const done = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, done, shown: () => shown };
}

/** A session's pending approvals and interrupted turns, as `toolseam sessions --json` lists them. */
async function listed(db: string): Promise<{ pendingApprovals: unknown[]; interruptedTurns: unknown[] }> {
  return JSON.parse((await run(['sessions', '--db', db, '--json'])).stdout);
}

/** A model that asks to write notes.txt, then repeats what the call answered. */
const SAVE_A_NOTE = [
  { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'buy milk' } }] },
  { echo: 'lastToolResult' as const },
];

/** How many `> ` message prompts the interactive chat has shown (on stdout, with every question). */
function prompts(stdout: string): number {
  return stdout.split('\n> ').length - 1;
}

describe('toolseam chat', () => {
  it('with no key and no model configured, says in one line what to set (exit 2)', async () => {
    const r = await run(['chat', '-m', 'hi', '--db', join(dir, 't.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/OPENAI_API_KEY/);
  });

  it('a turn the model ends without a word says so on stderr instead of printing nothing', async () => {
    // Claude ends a turn with end_turn and no content at all, often right after a tool result
    standIn = await startStandIn({ family: 'anthropic', script: [{ text: '' }] });
    const args = ['chat', '-m', 'hi', '--provider', 'anthropic', '--base-url', standIn.baseURL];
    const r = await run([...args, '--model', 'claude-test', '--db', join(dir, 't.db')], {
      ANTHROPIC_API_KEY: 'stand-in',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(
      '(the model ended the turn without a final answer; send a message such as "go on" to ask again)',
    );
  });

  it('-m prints the answer and exits 0; a failed turn prints why and exits 1', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [{ text: 'Hello from the model.' }, { error: { status: 400, message: 'bad request' } }],
    });
    const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', join(dir, 't.db')];
    const ok = await run(['chat', '-m', 'hi', ...base]);
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim()).toBe('Hello from the model.');
    const failed = await run(['chat', '-m', 'again', ...base]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/400/);
  });

  it('-m with no terminal to ask on leaves at once (exit 1) with the approval waiting, and `toolseam approve` answers it and resumes the turn', async () => {
    standIn = await startStandIn({ family: 'openai', script: SAVE_A_NOTE });
    const db = join(dir, 't.db');
    // stdin is a pipe closed at once: nobody can type an answer here
    const chat = await cli([
      'chat',
      '-m',
      'save a note',
      '--base-url',
      standIn.baseURL,
      '--model',
      'demo',
      '--db',
      db,
    ]).done;
    expect(chat.code).toBe(1);
    const id = /approval id: (ap-\S+)/.exec(chat.stdout)?.[1] as string;
    expect(chat.stdout).toContain('write_file wants to run');
    expect(chat.stdout).toContain(
      `no terminal to ask on: standard input is not one: leaving with the turn waiting for approval ${id}; \`toolseam approve ${id} yes|no|always\` answers it from any terminal within 5 min`,
    );
    expect(chat.stdout).toContain('--approve auto');
    expect(chat.stderr).not.toMatch(/\n\s+at /);
    // nothing was decided for the person: the approval waits, and the model has not been told anything yet
    expect(standIn.requests).toHaveLength(1);
    const listed = await run(['sessions', '--db', db, '--json']);
    expect(JSON.parse(listed.stdout).pendingApprovals[0]).toMatchObject({ id, tool: 'write_file' });
    expect(existsSync(join(dir, 'notes.txt'))).toBe(false);
    const approved = await run(['approve', id, 'yes', '--db', db]);
    expect(approved.code).toBe(0);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('buy milk');
    expect(standIn.requests).toHaveLength(2);
  });

  it('-m with no terminal and --approve deny refuses the call at once and tells the model', async () => {
    standIn = await startStandIn({ family: 'openai', script: SAVE_A_NOTE });
    const db = join(dir, 't.db');
    const args = ['chat', '-m', 'save a note', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db];
    const chat = await run([...args, '--approve', 'deny']);
    expect(chat.code).toBe(0);
    expect(chat.stderr).not.toContain('leaving with the turn waiting');
    expect(standIn.requests).toHaveLength(2);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(false);
  });

  it('interactive: an approval answered from another terminal leaves the prompt free for the next message', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'buy milk' } }] },
        { text: 'Saved it.' },
        { text: 'Second answer.' },
      ],
    });
    const db = join(dir, 't.db');
    const chat = cli(['chat', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db], {}, true);
    const stdin = chat.proc.stdin;
    try {
      await until('the first prompt', () => prompts(chat.stdout()) === 1);
      stdin.write('save a note\n');
      await until('the approval question', () => chat.stdout().includes('allow?'));
      const id = /approval id: (ap-\S+)/.exec(chat.stdout())?.[1] as string;
      const approved = await run(['approve', id, 'yes', '--db', db]);
      expect(approved.code).toBe(0);
      await until('the end of the first turn', () => chat.stdout().includes('Saved it.'));
      await until('the next prompt', () => prompts(chat.stdout()) === 2);
      expect(chat.stdout()).toContain(`approval ${id} is no longer waiting: approved elsewhere`);
      stdin.write('and now?\n');
      await until('the answer to the second message', () => chat.stdout().includes('Second answer.'));
      stdin.end();
      const r = await chat.done;
      expect(r.code).toBe(0);
      expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('buy milk');
    } finally {
      chat.proc.kill();
    }
  });

  it('interactive: Ctrl-D at an approval question leaves at once (exit 1), the turn left for `toolseam approve`', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'buy milk' } }] },
        { text: 'Saved it.' },
      ],
    });
    const db = join(dir, 't.db');
    const chat = cli(['chat', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db], {}, true);
    try {
      await until('the first prompt', () => prompts(chat.stdout()) === 1);
      chat.proc.stdin.write('save a note\n');
      await until('the approval question', () => chat.stdout().includes('allow?'));
      const id = /approval id: (ap-\S+)/.exec(chat.stdout())?.[1] as string;
      chat.proc.stdin.end();
      let exited = false;
      void chat.done.then(() => {
        exited = true;
      });
      await until('the chat to leave', () => exited);
      const r = await chat.done;
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`input closed: leaving with the turn waiting for approval ${id}`);
      expect(await listed(db)).toMatchObject({ pendingApprovals: [{ id }], interruptedTurns: [{}] });
      const approved = await run(['approve', id, 'yes', '--db', db]);
      expect(approved.code).toBe(0);
      expect(approved.stdout).toContain('Saved it.');
      expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('buy milk');
    } finally {
      chat.proc.kill();
    }
  }, 60_000);

  it('interactive: a message the session cannot take while another process runs its turn is told, and the chat goes on', async () => {
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'Now it is free.' }] });
    const db = join(dir, 't.db');
    // This test process drives a turn in the session, as a chat in another terminal would.
    const store = openSessionStore({ path: db });
    const session = await store.createSession();
    const busy = await store.startTurn({
      sessionId: session.id,
      userText: 'a long job',
      owner: processOwner(),
    });
    const args = [
      'chat',
      '--session',
      session.id,
      '--base-url',
      standIn.baseURL,
      '--model',
      'demo',
      '--db',
      db,
    ];
    const chat = cli(args, {}, true);
    const stdin = chat.proc.stdin;
    try {
      await until('the first prompt', () => prompts(chat.stdout()) === 1);
      stdin.write('hello\n');
      await until('the next prompt', () => prompts(chat.stdout()) === 2);
      expect(chat.stderr()).toContain(`Session ${session.id} has a turn running in another process`);
      await store.setTurnStatus(busy.id, 'done');
      stdin.write('and now?\n');
      await until('the answer', () => chat.stdout().includes('Now it is free.'));
      stdin.end();
      expect((await chat.done).code).toBe(0);
    } finally {
      chat.proc.kill();
      await store.close();
    }
  });

  it('--session with an unknown id says there is no such session (exit 2) and starts none; a known id continues', async () => {
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'First.' }, { text: 'Again.' }] });
    const db = join(dir, 't.db');
    const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', db];
    const first = await run(['chat', '-m', 'hi', ...base]);
    expect(first.code).toBe(0);
    const typo = await run(['chat', '--session', 'TYPO', '-m', 'hi', ...base]);
    expect(typo.code).toBe(2);
    expect(typo.stderr.trim().split('\n')).toHaveLength(1);
    expect(typo.stderr).toMatch(/no session TYPO.*toolseam sessions/);
    const listed = JSON.parse((await run(['sessions', '--db', db, '--json'])).stdout) as {
      sessions: Array<{ id: string }>;
    };
    expect(listed.sessions.map((x) => x.id)).not.toContain('TYPO');
    const id = listed.sessions[0]?.id as string;
    const again = await run(['chat', '--session', id, '-m', 'more', ...base]);
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe('Again.');
    expect(again.stderr).not.toMatch(/was on/);
  });

  it('an empty -m or --session is refused in one line before the database file is created (exit 2)', async () => {
    standIn = await startStandIn({ family: 'openai', script: [] });
    const db = join(dir, 't.db');
    const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', db];
    const cases: Array<[string[], string]> = [
      [
        ['-m', ''],
        'toolseam chat: -m needs a message to send: put the text after -m, or leave out -m to chat.',
      ],
      [
        ['-m', '  '],
        'toolseam chat: -m needs a message to send: put the text after -m, or leave out -m to chat.',
      ],
      [
        ['--session', '', '-m', 'hi'],
        'toolseam chat: --session needs a session id; `toolseam sessions` lists them (leave out --session to start a new one).',
      ],
    ];
    for (const [args, said] of cases) {
      const r = await run(['chat', ...args, ...base]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`${said}\n`);
      expect(existsSync(db)).toBe(false);
    }
    expect(standIn.requests).toHaveLength(0);
  });

  it('--session on another model than the session was on says so in one line, then goes on there', async () => {
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'First.' }, { text: 'Again.' }] });
    const db = join(dir, 't.db');
    const base = ['--base-url', standIn.baseURL, '--db', db];
    expect((await run(['chat', '-m', 'hi', '--model', 'demo', ...base])).code).toBe(0);
    const sessions = JSON.parse((await run(['sessions', '--db', db, '--json'])).stdout) as {
      sessions: Array<{ id: string }>;
    };
    const id = sessions.sessions[0]?.id as string;
    const moved = await run(['chat', '--session', id, '-m', 'more', '--model', 'other', ...base]);
    expect(moved.code).toBe(0);
    expect(moved.stdout.trim()).toBe('Again.');
    expect(moved.stderr).toMatch(
      new RegExp(
        `session ${id} was on openai-compatible model "demo".*goes on with openai-compatible model "other"`,
      ),
    );
    const after = JSON.parse((await run(['sessions', '--db', db, '--json'])).stdout) as {
      sessions: Array<{ id: string; model: string }>;
    };
    expect(after.sessions[0]?.model).toBe('other');
  });

  it('interactive with piped input: SIGINT stops the running turn and the prompt comes back', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [{ text: 'too late', delayMs: 5_000 }, { text: 'Next answer.' }],
    });
    const db = join(dir, 't.db');
    const chat = cli(['chat', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db], {}, true);
    const stdin = chat.proc.stdin;
    try {
      await until('the first prompt', () => prompts(chat.stdout()) === 1);
      stdin.write('take your time\n');
      await until('the request', () => (standIn?.requests.length ?? 0) === 1);
      chat.proc.kill('SIGINT');
      await until('the stopped turn', () => chat.stderr().includes('The turn was stopped.'));
      await until('the next prompt', () => prompts(chat.stdout()) === 2);
      stdin.write('and now?\n');
      await until('the next answer', () => chat.stdout().includes('Next answer.'));
      stdin.end();
      expect((await chat.done).code).toBe(0);
      expect(await listed(db)).toMatchObject({ interruptedTurns: [] });
    } finally {
      chat.proc.kill();
    }
  });

  it.skipIf(!hasScript)(
    '-m on a terminal: Ctrl-C stops the turn waiting on an approval (exit 1) and the approval ends as stopped',
    async () => {
      standIn = await startStandIn({
        family: 'openai',
        script: [{ toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'x' } }] }],
      });
      const db = join(dir, 't.db');
      const chat = cliOnTerminal([
        'chat',
        '-m',
        'save a note',
        '--base-url',
        standIn.baseURL,
        '--model',
        'demo',
        '--db',
        db,
      ]);
      try {
        await until('the approval question', () => chat.shown().includes('allow?'));
        chat.proc.stdin.write('\x03');
        expect(await chat.done).toBe(1);
        expect(chat.shown()).toContain('The turn was stopped.');
        expect(existsSync(join(dir, 'notes.txt'))).toBe(false);
        expect(await listed(db)).toMatchObject({ pendingApprovals: [], interruptedTurns: [] });
      } finally {
        chat.proc.kill();
      }
    },
  );

  it.skipIf(!hasScript)(
    'interactive on a terminal: a message pasted over several lines is sent as one message',
    async () => {
      standIn = await startStandIn({
        family: 'openai',
        script: [{ echo: 'lastUserMessage' }, { echo: 'lastUserMessage' }, { echo: 'lastUserMessage' }],
      });
      const db = join(dir, 't.db');
      const chat = cliOnTerminal(['chat', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db]);
      try {
        await until('the prompt', () => chat.shown().includes('> '));
        // the terminal marks a paste with ESC [200~ … ESC [201~ and sends its line breaks as returns
        chat.proc.stdin.write(
          '\x1b[200~Why does this fail?\rTypeError: x is undefined\r  at f (a.js:1:2)\x1b[201~',
        );
        await until('the pasted text', () => chat.shown().includes('a.js:1:2)'));
        chat.proc.stdin.write(' Any idea?\r');
        await until(
          'the answer',
          () => (standIn?.requests.length ?? 0) > 0 && chat.shown().includes('Any idea?\r\n'),
        );
        chat.proc.stdin.write('\x04');
        expect(await chat.done).toBe(0);
        expect(standIn.requests.map((r) => r.lastUserMessage)).toEqual([
          'Why does this fail?\nTypeError: x is undefined\n  at f (a.js:1:2) Any idea?',
        ]);
        expect(chat.shown()).toContain('\x1b[?2004h');
        expect(chat.shown().slice(chat.shown().lastIndexOf('\x1b[?2004'))).toMatch(/^\x1b\[\?2004l/);
      } finally {
        chat.proc.kill();
      }
    },
  );

  it.skipIf(!hasScript)(
    '-m on a terminal: Ctrl-C stops the turn (exit 1); a second Ctrl-C leaves at once (exit 130)',
    async () => {
      const call = { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'x' } }] };
      standIn = await startStandIn({ family: 'openai', script: [call, call] });
      const db = join(dir, 't.db');
      const args = [
        'chat',
        '-m',
        'save a note',
        '--base-url',
        standIn.baseURL,
        '--model',
        'demo',
        '--db',
        db,
      ];

      const once = cliOnTerminal(args);
      try {
        await until('the approval question', () => once.shown().includes('allow?'));
        once.proc.stdin.write('\x03');
        expect(await once.done).toBe(1);
        expect(once.shown()).toContain('The turn was stopped.');
        expect(await listed(db)).toMatchObject({ pendingApprovals: [], interruptedTurns: [] });
      } finally {
        once.proc.kill();
      }

      // Both presses arrive before the turn can end, as when stopping it hangs.
      const twice = cliOnTerminal(args);
      try {
        await until('the second approval question', () => twice.shown().includes('allow?'));
        twice.proc.stdin.write('\x03\x03');
        expect(await twice.done).toBe(130);
        expect(twice.shown()).toContain('left without waiting');
        expect((await listed(db)).interruptedTurns).toHaveLength(1);
      } finally {
        twice.proc.kill();
      }
      expect(existsSync(join(dir, 'notes.txt'))).toBe(false);
    },
  );
});

describe('questions are asked on stdout, so discarding stderr hides none of them', () => {
  /** The CLI with its stderr discarded, as `2>/dev/null` does, and a stdin to type into. */
  function quiet(args: string[]) {
    return spawnToolseamWithoutStderr(args, dir);
  }

  it('interactive: the message prompt, an approval question and its answer', async () => {
    standIn = await startStandIn({ family: 'openai', script: [...SAVE_A_NOTE, { text: 'Bye.' }] });
    const db = join(dir, 't.db');
    const chat = quiet(['chat', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db]);
    try {
      await until('the first prompt', () => prompts(chat.stdout()) === 1);
      chat.proc.stdin.write('save a note\n');
      await until('the approval question', () => chat.stdout().includes('allow? [y]es / [n]o / [a]lways: '));
      expect(chat.stdout()).toContain('? write_file wants to run (risk: ');
      expect(chat.stdout()).toContain('"path": "notes.txt"');
      chat.proc.stdin.write('y\n');
      await until('the answer', () => chat.stdout().includes('buy milk'));
      await until('the next prompt', () => prompts(chat.stdout()) === 2);
      chat.proc.stdin.end();
      expect((await chat.done).code).toBe(0);
      expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('buy milk');
    } finally {
      chat.proc.kill();
    }
  });

  it('interactive: a question the model puts with ask_user', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [
        {
          toolCalls: [
            { name: 'ask_user', arguments: { question: 'Which list?', choices: ['shopping', 'work'] } },
          ],
        },
        { echo: 'lastToolResult' },
      ],
    });
    const db = join(dir, 't.db');
    const chat = quiet(['chat', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db]);
    try {
      await until('the first prompt', () => prompts(chat.stdout()) === 1);
      chat.proc.stdin.write('add milk\n');
      await until('the question', () => chat.stdout().includes('? Which list? (shopping / work)\n> '));
      chat.proc.stdin.write('shopping\n');
      await until('the next prompt', () => prompts(chat.stdout()) === 3);
      chat.proc.stdin.end();
      expect((await chat.done).code).toBe(0);
      const told = JSON.stringify(standIn.requests[1]?.messages.at(-1));
      expect(told).toContain('shopping');
    } finally {
      chat.proc.kill();
    }
  });

  it('-m with no terminal to ask on: the approval left waiting, and how to answer it', async () => {
    standIn = await startStandIn({ family: 'openai', script: SAVE_A_NOTE });
    const db = join(dir, 't.db');
    const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', db];
    const waiting = quiet(['chat', '-m', 'save a note', ...base]);
    waiting.proc.stdin.end();
    const left = await waiting.done;
    expect(left.code).toBe(1);
    const id = /approval id: (ap-\S+)/.exec(left.stdout)?.[1];
    expect(id).toMatch(/^ap-/);
    expect(left.stdout).toContain('? write_file wants to run');
    expect(left.stdout).toContain(`\`toolseam approve ${id} yes|no|always\` answers it from any terminal`);
  });
});

describe('toolseam chat with an official MCP server', () => {
  /** A toolseam.json in the test folder running the real server-everything. */
  function withEverything(): void {
    const { command, args } = npmStdio(
      'everything',
      '@modelcontextprotocol/server-everything',
      'dist/index.js',
    );
    writeFileSync(
      join(dir, 'toolseam.json'),
      JSON.stringify({ mcpServers: { everything: { command, args } } }),
    );
  }

  it("says what the seam changed in one stderr line, and each tool's details only with --verbose", async () => {
    withEverything();
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'One.' }, { text: 'Two.' }] });
    const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', join(dir, 't.db')];
    const quiet = await run(['chat', '-m', 'hi', ...base]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe('One.\n');
    // 13 tools each had `$schema` dropped (nothing a model sees); one also lost a `format` it would see
    expect(quiet.stderr).toBe(
      'warn seam: 1 tool adjusted so that every provider takes it; `toolseam tools` shows what changed (--verbose lists each one here)\n',
    );
    const verbose = await run(['chat', '-m', 'hi', '--verbose', ...base]);
    expect(verbose.code).toBe(0);
    const seamLines = verbose.stderr.split('\n').filter((line) => line.includes(' seam: '));
    expect(seamLines).toHaveLength(2);
    expect(seamLines[0]).toMatch(/^info seam: .*"mcp\/everything\/gzip-file-as-resource" .*format "uri"/);
    expect(seamLines[1]).toMatch(/^warn seam: 1 tool adjusted/);
  });
});
