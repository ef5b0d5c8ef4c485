import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { brokenStdio } from '../support/mcp-servers.js';
import { spawnToolseam } from './spawn-toolseam.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

/** The CLI starts from source, then waits for the server: a busy machine needs long. */
const SLOW = { timeout: 60_000, interval: 100 };

let dir: string;
let standIn: StandIn | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-slow-mcp-'));
});
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Writes a toolseam.json naming one stdio server, as the broken test server in `mode`. */
function writeConfig(name: string, mode: string, more: readonly string[], extra: object = {}): void {
  const { command, args } = brokenStdio(name, mode, more);
  writeFileSync(
    join(dir, 'toolseam.json'),
    JSON.stringify({ mcpServers: { [name]: { command, args } }, ...extra }),
  );
}

/** The tool names one request to the model offered. */
function offered(request: StandIn['requests'][number] | undefined): string[] {
  return (request?.tools ?? []).map((t) => t.name);
}

describe('toolseam chat with an MCP server that does not answer', () => {
  it('names the server after a few seconds, then answers the message without its tools', async () => {
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'Hello there.' }] });
    writeConfig('silent', 'hang-start', []);
    const db = join(dir, 'chat.db');
    const chat = await toolseamInProcessWithoutKeys(
      ['chat', '-m', 'hi', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db],
      dir,
    );
    expect(chat.code).toBe(0);
    expect(chat.stdout).toContain('Hello there.');
    expect(chat.stderr).toContain(
      'MCP server "silent" has not finished starting after 3 s; toolseam waits for it up to 10 s before going on without its tools.',
    );
    expect(chat.stderr).toContain(
      'MCP server "silent" has not finished starting after 10 s, so its tools are left out for now;',
    );
    expect(offered(standIn.requests[0]).filter((n) => n.includes('silent'))).toEqual([]);
  }, 120_000);

  it("offers a late server's tools from the next message once it is up", async () => {
    standIn = await startStandIn({ family: 'openai', script: [{ text: 'First.' }, { text: 'Second.' }] });
    const go = join(dir, 'go');
    writeConfig('late', 'start-when', [go], { mcpTimeouts: { waitMs: 1000 } });
    const db = join(dir, 'chat.db');
    const chat = spawnToolseam(
      ['chat', '--base-url', standIn.baseURL, '--model', 'demo', '--db', db, '--verbose'],
      dir,
      {},
      true,
    );
    const stdin = chat.proc.stdin;
    try {
      stdin.write('hi\n');
      await expect.poll(chat.stdout, SLOW).toContain('First.');
      expect(chat.stderr()).toContain('MCP server "late" has not finished starting after 1 s');
      writeFileSync(go, '');
      await expect.poll(chat.stderr, SLOW).toContain('MCP server "late" is up after all');
      stdin.write('and now?\n');
      await expect.poll(chat.stdout, SLOW).toContain('Second.');
      stdin.end();
      expect((await chat.done).code).toBe(0);
    } finally {
      chat.proc.kill();
    }
    expect(offered(standIn.requests[0]).filter((n) => n.includes('late'))).toEqual([]);
    expect(offered(standIn.requests[1])).toContain('mcp_late_echo');
  }, 180_000);

  it('approve waits for a server still starting, past the wait of a message, before it answers a call to one of its tools', async () => {
    standIn = await startStandIn({
      family: 'openai',
      script: [{ toolCalls: [{ name: 'mcp_late_echo', arguments: { text: 'hi' } }] }, { text: 'Echoed.' }],
    });
    const go = join(dir, 'go');
    writeFileSync(go, '');
    const waitMs = 8_000;
    writeConfig('late', 'start-when', [go], { mcpTimeouts: { waitMs } });
    const db = join(dir, 'chat.db');
    const base = ['--base-url', standIn.baseURL, '--model', 'demo', '--db', db];
    const chat = await spawnToolseam(['chat', '-m', 'echo hi', ...base], dir).done;
    // the question and its id are on stdout, where a person answering reads them
    const id = /approval id: (ap-\S+)/.exec(chat.stdout)?.[1];
    expect(id, chat.stdout).toBeDefined();
    // Now the server starts only when told: later than a message would wait for it.
    rmSync(go);
    const approve = spawnToolseam(['approve', id as string, 'yes', '--db', db], dir);
    try {
      await expect
        .poll(approve.stderr, SLOW)
        .toContain('MCP server "late" has not finished starting after 3 s');
      await new Promise((done) => setTimeout(done, waitMs));
      expect(approve.proc.exitCode, approve.stderr()).toBeNull();
      writeFileSync(go, '');
      const approved = await approve.done;
      expect(approved.stderr).toContain('mcp/late/echo: approved');
      expect(approved.code).toBe(0);
      expect(approved.stdout).toContain('Echoed.');
    } finally {
      approve.proc.kill();
    }
  }, 180_000);
});
