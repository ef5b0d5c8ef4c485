import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { startStandIn } from '../../src/testing/index.js';
import { dropSchemas, freshSchemaName, PG_URL, requirePostgres } from '../store/pg-fixtures.js';
import { toolseamInProcess } from './toolseam-in-process.js';

let dir: string;
let schema: string;
let url: string;
// The default place, so no test here ever touches the user's own sessions.
let env: Record<string, string>;

beforeAll(requirePostgres);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-pg-db-'));
  schema = freshSchemaName();
  url = `${PG_URL}?schema=${schema}`;
  env = { TOOLSEAM_DB: join(dir, 'default.db') };
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropSchemas([schema]);
});

describe('a postgres:// database given to the commands', () => {
  it('chat keeps its session there (--db), and sessions reads it from "db" in toolseam.json', async () => {
    const standIn = await startStandIn({ family: 'openai', script: [{ text: 'Hello from the stand-in.' }] });
    try {
      const chat = await toolseamInProcess(
        ['chat', '-m', 'hi there', '--base-url', standIn.baseURL, '--model', 'demo', '--db', url],
        dir,
        env,
      );
      expect(chat.stderr).toBe('');
      expect(chat.code).toBe(0);
      expect(chat.stdout).toContain('Hello from the stand-in.');
    } finally {
      await standIn.close();
    }
    writeFileSync(join(dir, 'toolseam.json'), JSON.stringify({ db: url }));
    const listed = await toolseamInProcess(['sessions', '--json'], dir, env);
    expect(listed.code).toBe(0);
    const sessions = JSON.parse(listed.stdout).sessions as { title: string }[];
    expect(sessions.map((s) => s.title)).toEqual(['hi there']);
    const store = await openStore(url);
    try {
      const [session] = await store.listSessions();
      const said = (await store.listMessages(session?.id ?? '')).map((m) => m.message.content);
      expect(said).toEqual(['hi there', 'Hello from the stand-in.']);
    } finally {
      await store.close();
    }
  });

  it('a server that does not answer is told in one line with how to start one, no stack', async () => {
    const listed = await toolseamInProcess(
      ['sessions', '--db', 'postgres://postgres@127.0.0.1:1/test'],
      dir,
      env,
    );
    expect(listed.code).not.toBe(0);
    expect(listed.stderr).toMatch(/no PostgreSQL answered there.*pg_ctlcluster/);
    expect(listed.stderr).not.toMatch(/^\s+at /m);
  });
});
