import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { newCall, turnWithCalls } from '../store/store-fixtures.js';
import { toolseamInProcess } from './toolseam-in-process.js';

// A model nobody is asked: these commands stop before any request is sent.
const MODEL = ['--base-url', 'http://127.0.0.1:9/v1', '--model', 'demo'];
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-cli-errors-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI from source in an empty folder. */
function toolseam(args: string[]) {
  return toolseamInProcess(args, dir);
}

/** A database with one turn whose reply asked for write_file, with its approval. */
async function waitingTurn(owner?: string) {
  const db = join(dir, 't.db');
  const store = openSessionStore({ path: db });
  const { turn } = await turnWithCalls(store, [newCall('c1', 'write_file', { path: 'a.txt', content: 'x' })]);
  const approval = await store.requestApproval({
    turnId: turn.id,
    callId: 'c1',
    risk: 'caution',
    meaning: 'm',
  });
  if (owner) await store.setTurnStatus(turn.id, 'waiting_approval', { owner });
  return { db, store, turn, approval };
}

function expectOneLine(r: { code: number; stderr: string }, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('deliberate errors in the CLI: one line on stderr, exit code 2', () => {
  it('a mistyped --approve is named first, even with no model configured', async () => {
    const r = await toolseamInProcess(['chat', '--approve', 'maybe', '-m', 'hi'], dir, {
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
    });
    expectOneLine(r, /--approve takes ask, auto or deny, not "maybe"/);
  });

  it('approving an approval that was already answered', async () => {
    const { db, store, approval } = await waitingTurn();
    await store.answerApproval(approval.id, { kind: 'deny' }, { digest: approval.digest });
    await store.close();
    expectOneLine(await toolseam(['approve', approval.id, 'yes', '--db', db]), /already denied/);
  });

  it('a database that cannot be opened', async () => {
    expectOneLine(await toolseam(['sessions', '--db', '/etc/passwd/x.db']), /\/etc\/passwd\/x\.db/);
  });

  it('words after an approval answer, or a --reason with yes, are refused and nothing is answered', async () => {
    const { db, store, approval } = await waitingTurn();
    await store.close();
    expectOneLine(
      await toolseam(['approve', approval.id, 'no', 'too', 'risky', '--db', db, ...MODEL]),
      /"too risky" followed; a reason for no goes in --reason, e\.g\. `toolseam approve ap-\S+ no --reason "too risky"`/,
    );
    expectOneLine(
      await toolseam(['approve', approval.id, 'yes', '--reason', 'fine', '--db', db, ...MODEL]),
      /--reason goes with no/,
    );
    const after = openSessionStore({ path: db });
    expect((await after.getApproval(approval.id))?.status).toBe('pending');
    await after.close();
  });

  it('resume with more than one turn id', async () => {
    const { db, store, turn } = await waitingTurn();
    await store.close();
    expectOneLine(await toolseam(['resume', turn.id, 't-other', '--db', db]), /one turn id at a time/);
  });

  it('resuming a turn another live process runs, and one that already ended', async () => {
    // This test's own process is alive and is not the CLI's, so the turn counts as running elsewhere.
    const busy = await waitingTurn(`${hostname()}:${process.pid}`);
    await busy.store.close();
    expectOneLine(
      await toolseam(['resume', busy.turn.id, '--db', busy.db, ...MODEL]),
      /still running in another process/,
    );
    const store = openSessionStore({ path: busy.db });
    const { turn: ended } = await turnWithCalls(store, []);
    await store.setTurnStatus(ended.id, 'done');
    await store.close();
    expectOneLine(await toolseam(['resume', ended.id, '--db', busy.db, ...MODEL]), /already ended/);
    // Without model flags too: an ended turn needs no model, so it is not asked for one.
    expectOneLine(await toolseam(['resume', ended.id, '--db', busy.db]), /already ended \(done\)/);
  });

  it('chat --agent naming an agent the config does not define: the configured ones are listed, nothing starts', async () => {
    const db = join(dir, 't.db');
    writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ agents: { reader: {}, writer: {} } }));
    const r = await toolseam(['chat', '--agent', 'nope', '-m', 'hi', '--db', db, ...MODEL]);
    expectOneLine(r, /there is no agent "nope"; the configured agents are reader, writer\./);
    const store = openSessionStore({ path: db });
    expect(await store.listSessions()).toEqual([]);
    await store.close();
    rmSync(join(dir, 'toolseam.json'));
    const none = await toolseam(['chat', '--agent', 'toString', '-m', 'hi', '--db', db, ...MODEL]);
    expectOneLine(none, /no agent "toString"; the config defines none/);
  });

  it('an empty --base-url is refused, not dropped for the provider the environment points at', async () => {
    // as `--base-url "$LOCAL_URL"` with the variable unset: the conversation must not go elsewhere
    const r = await toolseamInProcess(
      ['chat', '-m', 'hi', '--base-url', '', '--db', join(dir, 't.db')],
      dir,
      {
        OPENAI_API_KEY: '',
        ANTHROPIC_API_KEY: 'set-for-another-use',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
      },
    );
    expectOneLine(r, /--base-url needs a URL/);
  });

  it('a --base-url without http:// names the flag and the URL to write, not the config key baseURL', async () => {
    const db = ['--model', 'demo', '--db', join(dir, 't.db')];
    const local = await toolseam(['chat', '-m', 'hi', '--base-url', '127.0.0.1:8787/v1', ...db]);
    expectOneLine(local, /--base-url "127\.0\.0\.1:8787\/v1" .* --base-url http:\/\/127\.0\.0\.1:8787\/v1/);
    expect(local.stderr).not.toContain('(baseURL)');
    const remote = await toolseam(['chat', '-m', 'hi', '--base-url', 'api.example.com/v1', ...db]);
    expectOneLine(remote, /write it as --base-url https:\/\/api\.example\.com\/v1/);
  });

  it('a flag the command does not know, or a value it lacks: a sentence, then where the options are', async () => {
    const unknown = await toolseam(['chat', '--bogus']);
    expectOneLine(unknown, /--bogus/);
    expect(unknown.stderr).toBe(
      "toolseam chat: Unknown option '--bogus'. Run `toolseam chat --help` to see its options.\n",
    );
    // a command that takes positionals: Node's note on passing one that starts with a dash is left out
    const approve = await toolseam(['approve', '--bogus']);
    expect(approve.stderr).toBe(
      "toolseam approve: Unknown option '--bogus'. Run `toolseam approve --help` to see its options.\n",
    );
    const missing = await toolseam(['sessions', '--db']);
    expect(missing.stderr).toBe(
      "toolseam sessions: Option '--db <value>' argument missing. Run `toolseam sessions --help` to see its options.\n",
    );
  });

  it('a flag whose value is left out before another flag: says it needs a value, in one line', async () => {
    const short = await toolseam(['chat', '-m', '--db', join(dir, 't.db')]);
    expect(short.stderr).toBe(
      'toolseam chat: -m needs a value, and what follows it is another option; put the value right after -m (one that starts with a dash is written --message=-VALUE). Run `toolseam chat --help` to see its options.\n',
    );
    expect(short.code).toBe(2);
    const long = await toolseam(['chat', '--session', '--model', 'demo']);
    expectOneLine(long, /^toolseam chat: --session needs a value, and what follows it is another option/);
  });

  it('dev-provider, conform and tools, which word their own hint, say the same sentences', async () => {
    const r = await toolseam(['dev-provider', '--famly', 'openai']);
    expect(r.stderr).toBe(
      "toolseam dev-provider: Unknown option '--famly'. Run `toolseam dev-provider --help` for the options.\n",
    );
    const conform = await toolseam(['conform', '--server', '--json', 'tools.json']);
    expectOneLine(
      conform,
      /^toolseam conform: --server needs a value, and what follows it is another option/,
    );
  });

  it('a config file that is not JSON: what is wrong, at which line, whole (not cut at a line break it quoted)', async () => {
    writeFileSync(join(dir, 'toolseam.json'), '{\n  "model": {\n    "provider": openai\n  }\n}\n');
    const r = await toolseam(['tools']);
    expectOneLine(
      r,
      /toolseam\.json is not valid JSON: expected a value, found 'openai' at line 3, column 17/,
    );
    expect(r.stderr).not.toMatch(/--help/);
  });
});
