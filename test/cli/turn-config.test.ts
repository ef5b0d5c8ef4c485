import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { spawnToolseam } from './spawn-toolseam.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

/** The official filesystem MCP server, installed from npm, run with node. */
const FS_SERVER = join(
  import.meta.dirname,
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-filesystem',
  'dist',
  'index.js',
);

let dir: string;
let chatDir: string;
let elsewhere: string;
let standIn: StandIn | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-turn-config-'));
  chatDir = join(dir, 'project');
  elsewhere = join(dir, 'elsewhere');
  mkdirSync(chatDir);
  mkdirSync(elsewhere);
  // The server's folder is "." : the folder toolseam runs in, as in the README's example.
  writeConfig({ fs: { command: process.execPath, args: [FS_SERVER, '.'] } });
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(mcpServers: Record<string, unknown>): void {
  writeFileSync(join(chatDir, 'toolseam.json'), JSON.stringify({ mcpServers }));
}

/** `chat -m` in the project folder, whose model asks for mcp/fs/write_file; it leaves with the approval waiting. */
async function chatWaiting(db: string) {
  standIn = await startStandIn({
    family: 'openai',
    script: [
      {
        toolCalls: [{ name: 'mcp_fs_write_file', arguments: { path: 'notes.txt', content: 'buy milk' } }],
      },
      { text: 'Saved the note.' },
    ],
  });
  // It leaves with exit 1, the process's own end: a child.
  const chat = await spawnToolseam(
    ['chat', '-m', 'save a note', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db],
    chatDir,
  ).done;
  expect(chat.code).toBe(1);
  const id = /approval id: (ap-\S+)/.exec(chat.stdout)?.[1] as string;
  expect(id).toBeDefined();
  const store = openSessionStore({ path: db });
  const approval = await store.getApproval(id);
  const turn = await store.getTurn(approval?.turnId as string);
  await store.close();
  return { id, turn };
}

async function approvalStatus(db: string, id: string): Promise<string | undefined> {
  const store = openSessionStore({ path: db });
  try {
    return (await store.getApproval(id))?.status;
  } finally {
    await store.close();
  }
}

// Each case starts several toolseam processes and an MCP server: a busy machine takes its time.
describe('approve and resume go on with the config and folder the turn ran with', {
  timeout: 180_000,
}, () => {
  it('the turn records its config file, the file’s hash and its folder', async () => {
    const db = join(dir, 't.db');
    const { turn } = await chatWaiting(db);
    expect(turn?.ranWith).toMatchObject({ workdir: chatDir, file: join(chatDir, 'toolseam.json') });
    expect(turn?.ranWith?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('approve from a folder without the config runs the MCP call in the turn’s own folder with its own server', async () => {
    const db = join(dir, 't.db');
    const { id } = await chatWaiting(db);
    const approved = await toolseamInProcessWithoutKeys(['approve', id, 'yes', '--db', db], elsewhere);
    expect(approved.stderr).not.toMatch(/\n\s+at /);
    expect(approved.stderr).not.toContain('there is no tool named');
    expect(approved.stderr).toContain(
      `goes on in ${chatDir} with the config ${join(chatDir, 'toolseam.json')}, as it ran.`,
    );
    expect(approved.stderr).toContain('mcp/fs/write_file: approved');
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('Saved the note.');
    expect(readFileSync(join(chatDir, 'notes.txt'), 'utf8')).toBe('buy milk');
    expect(existsSync(join(elsewhere, 'notes.txt'))).toBe(false);
  });

  it('resume from another folder takes the turn over with its own config too', async () => {
    const db = join(dir, 't.db');
    const { id, turn } = await chatWaiting(db);
    // answered while nobody drives the turn (as by a store), then resumed from elsewhere
    const store = openSessionStore({ path: db });
    const approval = await store.getApproval(id);
    await store.answerApproval(id, { kind: 'approve' }, { digest: approval?.digest as string });
    await store.close();
    const resumed = await toolseamInProcessWithoutKeys(['resume', turn?.id as string, '--db', db], elsewhere);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Saved the note.');
    expect(readFileSync(join(chatDir, 'notes.txt'), 'utf8')).toBe('buy milk');
  });

  it('a --config naming another file is refused before anything is answered', async () => {
    const db = join(dir, 't.db');
    const { id, turn } = await chatWaiting(db);
    writeFileSync(join(elsewhere, 'toolseam.json'), '{}');
    const other = join(elsewhere, 'toolseam.json');
    for (const args of [
      ['approve', id, 'yes', '--db', db, '--config', other],
      ['resume', turn?.id as string, '--db', db, '--config', other],
    ]) {
      const refused = await toolseamInProcessWithoutKeys(args, elsewhere);
      expect(refused.code).toBe(2);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toContain(
        `ran with the config ${join(chatDir, 'toolseam.json')}; --config ${other} names another`,
      );
    }
    expect(await approvalStatus(db, id)).toBe('pending');
    expect(standIn?.requests).toHaveLength(1);
  });

  it('a config file that is gone is refused before anything is answered, saying which file the turn ran with', async () => {
    const db = join(dir, 't.db');
    const { id } = await chatWaiting(db);
    renameSync(join(chatDir, 'toolseam.json'), join(chatDir, 'toolseam.json.bak'));
    const refused = await toolseamInProcessWithoutKeys(['approve', id, 'yes', '--db', db], elsewhere);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `ran with the config ${join(chatDir, 'toolseam.json')}, which is no longer there`,
    );
    expect(await approvalStatus(db, id)).toBe('pending');
    renameSync(join(chatDir, 'toolseam.json.bak'), join(chatDir, 'toolseam.json'));
    const approved = await toolseamInProcessWithoutKeys(['approve', id, 'yes', '--db', db], elsewhere);
    expect(approved.code).toBe(0);
    expect(readFileSync(join(chatDir, 'notes.txt'), 'utf8')).toBe('buy milk');
  });

  it('a yes for a tool the config no longer loads is refused and the approval keeps waiting; a no is answered', async () => {
    const db = join(dir, 't.db');
    const { id } = await chatWaiting(db);
    // the server now fails to start: its script is not there
    writeConfig({ fs: { command: process.execPath, args: [join(dir, 'missing-server.js'), '.'] } });
    const refused = await toolseamInProcessWithoutKeys(['approve', id, 'yes', '--db', db], elsewhere);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('changed since turn');
    expect(refused.stderr).toContain(
      'mcp/fs/write_file is not among the tools toolseam loads with the config',
    );
    expect(refused.stderr).toContain('mcp/fs did not load');
    expect(refused.stderr).toContain(`approval ${id} still waits`);
    expect(refused.stderr).not.toContain('approved');
    expect(await approvalStatus(db, id)).toBe('pending');
    const denied = await toolseamInProcessWithoutKeys(['approve', id, 'no', '--db', db], elsewhere);
    expect(denied.stderr).toContain('mcp/fs/write_file: denied');
    expect(await approvalStatus(db, id)).toBe('denied');
    expect(existsSync(join(chatDir, 'notes.txt'))).toBe(false);
  });
});
