import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnToolseam, until } from './spawn-toolseam.js';
import { toolseamInProcess } from './toolseam-in-process.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-dev-provider-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function expectOneLine(r: { code: number; stderr: string }, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
}

describe('toolseam dev-provider where it cannot listen', () => {
  it('a port in use: one line suggesting another --port, no stack trace', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as { port: number };
    try {
      const r = await toolseamInProcess(['dev-provider', '--family', 'openai', '--port', String(port)], dir);
      expectOneLine(
        r,
        new RegExp(`127\\.0\\.0\\.1:${port} is already in use; pick another --port \\(0 = any free port\\)`),
      );
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('a --host that is not an address of this machine', async () => {
    const r = await toolseamInProcess(['dev-provider', '--family', 'openai', '--host', '203.0.113.5'], dir);
    expectOneLine(r, /--host 203\.0\.113\.5 is not an address of this machine/);
  });
});

describe('toolseam dev-provider with bad flags', () => {
  it.each([[['--family', 'cohere']], [['--nope']]])(
    '%j: one short line pointing at --help, not the usage squashed into it',
    async (args) => {
      const r = await toolseamInProcess(['dev-provider', ...args], dir);
      expectOneLine(r, /toolseam dev-provider --help/);
      expect(r.stderr).not.toMatch(/usage:/);
      expect(r.stderr.length).toBeLessThan(200);
    },
  );
});

describe('toolseam dev-provider once its script is played', () => {
  it('a chat past the last scripted turn is told to restart the stand-in, not to push turns', async () => {
    writeFileSync(join(dir, 'script.json'), JSON.stringify([{ text: 'Hello from the script.' }]));
    const server = spawnToolseam(
      ['dev-provider', '--family', 'openai', '--port', '0', '--script', 'script.json'],
      dir,
    );
    try {
      await until('the stand-in to listen', () => /base URL at (\S+);/.test(server.stdout()));
      const baseURL = /base URL at (\S+);/.exec(server.stdout())?.[1] as string;
      const chat = ['chat', '--base-url', baseURL, '--model', 'demo', '--db', join(dir, 't.db'), '-m', 'hi'];
      const first = await toolseamInProcess(chat, dir);
      expect(first.stdout).toContain('Hello from the script.');
      const second = await toolseamInProcess(chat, dir);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(
        'all 1 turn(s) of script.json were played; restart `toolseam dev-provider` to play them again',
      );
      expect(second.stderr).not.toContain('push more turns');
    } finally {
      server.proc.kill('SIGTERM');
      await server.done;
    }
  });
});

describe('a chat on Bedrock against `toolseam dev-provider --family bedrock`', () => {
  it('needs no region and no AWS credentials: the real SDK signs with placeholders', async () => {
    const server = spawnToolseam(['dev-provider', '--family', 'bedrock', '--port', '0'], dir);
    // No AWS variable at all, and a home without ~/.aws, so the SDK's chain has nothing to find.
    const noAws = Object.fromEntries(
      Object.keys(process.env)
        .filter((k) => k.startsWith('AWS_'))
        .map((k) => [k, undefined]),
    );
    const env = { ...noAws, HOME: dir };
    try {
      await until('the stand-in to listen', () => /base URL at (\S+);/.test(server.stdout()));
      const baseURL = /base URL at (\S+);/.exec(server.stdout())?.[1] as string;
      const chat = ['chat', '--provider', 'bedrock', '--base-url', baseURL, '--model', 'demo', '-m', 'hello'];
      const r = await toolseamInProcess([...chat, '--db', join(dir, 't.db')], dir, env);
      expect(r.stderr).not.toMatch(/region|credential/i);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('hello');
    } finally {
      server.proc.kill('SIGTERM');
      await server.done;
    }
  });
});
