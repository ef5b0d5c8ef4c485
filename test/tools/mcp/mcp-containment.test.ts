import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { brokenProviders } from '../../support/broken-providers.js';
import { notesStdio } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';
import { alive } from '../../support/process-alive.js';

const { broken, track } = brokenProviders();

describe('a broken MCP server costs only its own tools', () => {
  it('records why a server that crashes at start has no tools, with its last words', async () => {
    const provider = broken('crash-at-start');
    const error = await provider.listTools().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'mcp_start_failed', server: 'crash-at-start', kind: 'start_failed' });
    expect(String((error as Error).message)).toContain('the database file notes.db is locked');
    const result = await provider.invoke('mcp/crash-at-start/echo', { text: 'hi' }, toolContext());
    expect(result).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(result.content).toContain('is not running');
    expect(result.content).toContain('try to start it again in');
  });

  it.skipIf(process.platform === 'win32')(
    'leaves nothing running when a server started through a wrapper closes',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'toolseam-wrapper-'));
      try {
        const notes = notesStdio('wrapped');
        const pidFile = join(dir, 'left.pid');
        // The wrapper outlives the server and starts something of its own, as launchers do.
        const script = `"$0" "$1" "$2"; sleep 30 & echo $! > '${pidFile}'; wait`;
        const provider = createMcpProvider({
          ...notes,
          command: '/bin/sh',
          args: ['-c', script, notes.command, ...notes.args],
        });
        track(provider);
        expect((await provider.listTools()).length).toBeGreaterThan(0);
        await provider.close();
        const left = Number(await readFile(pidFile, 'utf8'));
        expect(left).toBeGreaterThan(0);
        expect(alive(left)).toBe(false);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it('quotes what a server that says nothing on stderr wrote on stdout before it exited at start', async () => {
    const provider = broken('stdout-fatal');
    const error = await provider.listTools().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'start_failed', server: 'stdout-fatal' });
    expect(String((error as Error).message)).toContain(
      'exited while starting (its stdout ended with: Starting notes server... | Error: the NOTES_API_KEY environment variable is required)',
    );
  });

  it('reports a command that does not exist', async () => {
    const provider = createMcpProvider({
      name: 'ghost',
      kind: 'stdio',
      command: 'no-such-mcp-server-xyz',
      args: [],
      env: {},
    });
    track(provider);
    const error = (await provider.listTools().catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      'MCP server "ghost" could not be started: the command "no-such-mcp-server-xyz" was not found; give its full path or put it on PATH. Run "no-such-mcp-server-xyz" in a terminal to see it start.',
    );
  });

  it('names a working folder that does not exist, not the command', async () => {
    const provider = createMcpProvider({
      name: 'lost',
      kind: 'stdio',
      command: process.execPath,
      args: ['-e', ''],
      env: {},
      cwd: '/no/such/folder/for/toolseam',
    });
    track(provider);
    await expect(provider.listTools()).rejects.toThrow(
      'could not be started: its working folder /no/such/folder/for/toolseam does not exist; fix "cwd" in its config.',
    );
  });

  it('says why an HTTP server could not be reached: nothing listening, or a port fetch will not use', async () => {
    const free = createServer();
    free.listen(0, '127.0.0.1');
    await once(free, 'listening');
    const { port } = free.address() as AddressInfo;
    await new Promise((done) => free.close(done));
    const cases = [
      [`http://127.0.0.1:${port}/mcp`, 'nothing answers at URL (the connection was refused)'],
      // Port 9 is one of the ports fetch refuses to use at all; the bare 'fetch failed' hid that.
      ['http://127.0.0.1:9/mcp', 'URL could not be reached (bad port)'],
    ] as const;
    for (const [url, why] of cases) {
      const provider = createMcpProvider({ name: 'gone', kind: 'http', url, headers: {} });
      track(provider);
      await expect(provider.listTools()).rejects.toMatchObject({
        kind: 'start_failed',
        message: `MCP server "gone" could not be started: ${why.replace('URL', url)}. Check that ${url} is up and takes the configured headers.`,
      });
      expect(await provider.invoke('mcp/gone/x', {}, toolContext())).toMatchObject({
        isError: true,
        notRun: 'refused_by_tool',
      });
    }
  });

  it('gives up on a server that never finishes starting, saying only that', async () => {
    const provider = broken('hang-start', { timeouts: { startMs: 400 } });
    // Nothing of the stop that follows (the cancellation it can no longer send) is blamed on it.
    await expect(provider.listTools()).rejects.toMatchObject({
      kind: 'start_timeout',
      message: expect.stringMatching(/^MCP server "hang-start" did not finish starting within 400 ms\. Run /),
    });
  });

  it('gives up on a server that hangs on tools/list', async () => {
    const provider = broken('hang-list', { timeouts: { listMs: 400 } });
    await expect(provider.listTools()).rejects.toMatchObject({
      kind: 'list_timeout',
      message: expect.stringContaining('did not answer tools/list within 400 ms'),
    });
  });

  it('records a listing that is not a list and a listing answered with an error', async () => {
    await expect(broken('bad-list').listTools()).rejects.toMatchObject({ kind: 'bad_listing' });
    await expect(broken('error-list').listTools()).rejects.toMatchObject({
      kind: 'list_failed',
      message:
        'MCP server "error-list" answered tools/list with an error: index not built (JSON-RPC error -32603).',
    });
  });

  it('keeps the well-formed tools of a malformed listing and says what was left out', async () => {
    const provider = broken('malformed');
    const names = (await provider.listTools()).map((t) => t.name);
    expect(names.slice(0, 4)).toEqual([
      'mcp/malformed/good',
      'mcp/malformed/string_root',
      'mcp/malformed/no_schema',
      'mcp/malformed/schema_is_text',
    ]);
    const problems = provider.loadProblems().join('\n');
    expect(problems).toContain('entry 0 as a string instead of a tool object');
    expect(problems).toContain('entry 1 without a name');
    expect(problems).toContain('listed the tool "good" more than once');
    expect(problems).toContain('declared no inputSchema for "no_schema"');
    expect((await provider.invoke('mcp/malformed/good', { q: 'x' }, toolContext())).content).toBe(
      '{"q":"x"}',
    );
  });

  it('reads garbage on stdout as noise and keeps serving', async () => {
    const provider = broken('garbage');
    expect((await provider.listTools()).map((t) => t.name)).toContain('mcp/garbage/echo');
    expect((await provider.invoke('mcp/garbage/echo', { text: 'hi' }, toolContext())).content).toBe(
      '{"text":"hi"}',
    );
  });

  it('does not blame a later crash on an unreadable line the server wrote long before', async () => {
    const provider = broken('garbage');
    await provider.listTools();
    expect((await provider.invoke('mcp/garbage/boom', {}, toolContext())).content).toBe(
      'Error: MCP server "garbage" stopped while running mcp/garbage/boom (its stderr ended with: panic: index out of range in handler). ' +
        'Whether the call did anything is unknown; toolseam starts the server again on the next call.',
    );
  });

  it('keeps odd tool names as the real names', async () => {
    const names = (await broken('odd').listTools()).map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['mcp/odd/a.b', 'mcp/odd/x/y', 'mcp/odd/ünïcödé-名前', 'mcp/odd/tree']),
    );
  });

  it('stops waiting for a call that hangs; the server keeps serving other calls', async () => {
    const provider = broken('ok', { timeouts: { callMs: 300 } });
    const result = await provider.invoke('mcp/ok/wait', {}, toolContext());
    expect(result.isError).toBe(true);
    expect(result.notRun).toBeUndefined();
    expect(result.content).toContain('did not answer the call to mcp/ok/wait within 300 ms');
    expect((await provider.invoke('mcp/ok/count', { n: 3 }, toolContext())).content).toBe('counted to 3');
  });

  it('stops a call when the turn is stopped', async () => {
    const provider = broken('ok');
    await provider.listTools();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const result = await provider.invoke('mcp/ok/wait', {}, toolContext(stop.signal));
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toContain('was stopped before MCP server "ok" answered');
  });

  it('says a server exited mid-call, refuses during back-off, then restarts it on the next use', async () => {
    let now = 1_000_000;
    const provider = broken('ok', { backoff: { initialMs: 5_000, maxMs: 20_000 }, now: () => now });
    await provider.listTools();
    const crashed = await provider.invoke('mcp/ok/boom', {}, toolContext());
    expect(crashed.isError).toBe(true);
    expect(crashed.content).toContain('stopped while running mcp/ok/boom');
    expect(crashed.content).toContain('panic: index out of range in handler');
    await expect.poll(() => provider.connected).toBe(false);

    const during = await provider.invoke('mcp/ok/echo', { text: 'a' }, toolContext());
    expect(during).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
    expect(during.content).toContain('try to start it again in 5 s');

    now += 5_001;
    expect((await provider.invoke('mcp/ok/echo', { text: 'b' }, toolContext())).content).toBe('{"text":"b"}');
    expect(provider.connected).toBe(true);
  });

  it('doubles the back-off while restarts keep failing', async () => {
    let now = 0;
    const provider = broken('crash-at-start', {
      backoff: { initialMs: 1_000, maxMs: 3_000 },
      now: () => now,
    });
    const waits: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      await provider.listTools().catch(() => undefined);
      const refused = await provider.invoke('mcp/crash-at-start/echo', {}, toolContext());
      waits.push(/again in ([\d.]+ s)/.exec(refused.content)?.[1] ?? refused.content);
      now += 10_000;
    }
    expect(waits).toEqual(['1 s', '2 s', '3 s', '3 s']);
  });

  it('cuts an enormous result to the configured size, saying how much there was', async () => {
    const provider = broken('ok', { maxResultChars: 10_000 });
    const result = await provider.invoke('mcp/ok/flood', { chars: 1_000_000 }, toolContext());
    expect(result.isError).toBe(false);
    expect(result.content.length).toBeLessThan(10_300);
    expect(result.content).toContain('showing the first 10,000 of 1,000,000 characters');
  });

  it.each([
    ['first', false],
    ['last', true],
  ])(
    'answers a call whose result is larger than one message may be with an error, and the server stays up (id %s)',
    async (_where, idLast) => {
      const provider = broken('ok', { maxMessageBytes: 100_000 });
      const ctx = toolContext();
      const result = await provider.invoke('mcp/ok/flood', { chars: 300_000, idLast }, ctx);
      expect(result).toMatchObject({
        isError: true,
        data: { code: 'mcp_answer_too_large', server: 'ok', tool: 'mcp/ok/flood', limitBytes: 100_000 },
      });
      const bytes = (result.data as { bytes: number }).bytes;
      expect(bytes).toBeGreaterThan(300_000);
      expect(bytes).toBeLessThan(300_100);
      expect(result.content).toContain(`answered mcp/ok/flood with ${bytes.toLocaleString('en-US')} bytes`);
      expect(result.content).toContain('more than the 100,000 bytes toolseam takes in one message');
      expect(result.content).toContain('asking for less');
      expect(provider.connected).toBe(true);
      expect((await provider.invoke('mcp/ok/count', { n: 1 }, ctx)).content).toBe('counted to 1');
      expect(provider.connected).toBe(true);
    },
  );

  it('ends the connection when an oversized message names no call, so no call waits for it', async () => {
    const provider = broken('ok', { maxMessageBytes: 100_000, backoff: { initialMs: 1, maxMs: 1 } });
    const result = await provider.invoke('mcp/ok/flood', { chars: 300_000, asLog: true }, toolContext());
    expect(result.isError).toBe(true);
    expect(result.content).toContain('stopped while running mcp/ok/flood');
    expect(result.content).toContain('it sent a message larger than toolseam accepts (100,000 bytes)');
    await new Promise((r) => setTimeout(r, 20));
    expect((await provider.invoke('mcp/ok/count', { n: 1 }, toolContext())).content).toBe('counted to 1');
  });

  it('reads a result in the older toolResult form, and content sent as a bare string', async () => {
    const provider = broken('ok');
    expect(await provider.invoke('mcp/ok/old_style', {}, toolContext())).toEqual({
      content: '{"temperature":21,"unit":"C"}',
      isError: false,
    });
    expect(await provider.invoke('mcp/ok/plain', {}, toolContext())).toEqual({
      content: 'plain words',
      isError: false,
    });
  });

  it("turns a JSON-RPC error into a refusal with the server's reason", async () => {
    const provider = broken('ok');
    const result = await provider.invoke('mcp/ok/count', { n: -1 }, toolContext());
    expect(result).toEqual({
      content:
        'Error: MCP server "ok" refused the call to mcp/ok/count: n must be a number of at least 0, got -1',
      isError: true,
      notRun: 'refused_by_tool',
    });
  });

  it('sends numeric text as a number and JSON list text as a list', async () => {
    const provider = broken('ok');
    const result = await provider.invoke('mcp/ok/count', { n: '12', tags: '["a","b"]' }, toolContext());
    expect(result.content).toBe('counted to 12 with a+b');
  });
});
