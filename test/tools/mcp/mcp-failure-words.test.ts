import { describe, expect, it } from 'vitest';
import { createMcpProvider, type McpToolProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { brokenProviders } from '../../support/broken-providers.js';
import { brokenStdio } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const { broken, track } = brokenProviders();

describe('what a failing MCP server is said to have done', () => {
  it('a call that failed inside the server may have done part of its work: a failure, not a refusal', async () => {
    const provider = broken('ok');
    const result = await provider.invoke('mcp/ok/jam', {}, toolContext());
    expect(result.isError).toBe(true);
    expect(result.notRun).toBeUndefined();
    expect(result.content).toContain('receipt printer jammed');
    expect(result.content).toContain('Whether the call did anything is unknown');
  });

  it('after tools/list_changed, a failed listing is not replaced by the listing from before the notice', async () => {
    const provider = broken('relist-fails');
    let changes = 0;
    provider.onToolsChanged?.(() => {
      changes += 1;
    });
    expect((await provider.listTools()).map((t) => t.name)).toContain('mcp/relist-fails/gone');
    await expect.poll(() => changes).toBeGreaterThan(0);
    await expect(provider.listTools()).rejects.toThrow(/database offline/);
    await expect(provider.listTools()).rejects.toThrow(/database offline/);
    const result = await provider.invoke('mcp/relist-fails/gone', {}, toolContext());
    expect(result).toMatchObject({ isError: true, notRun: 'refused_by_tool' });
  });

  it('a schema too deep to write out costs nothing to the other tools of its server', async () => {
    const provider = broken('deep');
    const names = (await provider.listTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['mcp/deep/deep', 'mcp/deep/echo']));
    expect((await provider.invoke('mcp/deep/echo', { text: 'hi' }, toolContext())).content).toBe(
      '{"text":"hi"}',
    );
  });
});

describe("the credentials in an MCP server's environment", () => {
  const TOKEN = 'tok_Zx81kQ0pLmN5vB7c';
  function leaky(): McpToolProvider {
    return track(
      createMcpProvider({ ...brokenStdio('leaky', 'ok'), env: { DEMO_API_TOKEN: TOKEN, LANG: 'C' } }),
    );
  }

  it('are hidden in what the server returns', async () => {
    const result = await leaky().invoke('mcp/leaky/leak', { how: 'result' }, toolContext());
    expect(result.content).not.toContain(TOKEN);
    expect(result.content).toBe('using token [secret:DEMO_API_TOKEN]');
  });

  it("are hidden in the server's last words when it dies mid-call", async () => {
    const result = await leaky().invoke('mcp/leaky/leak', { how: 'stderr' }, toolContext());
    expect(result.isError).toBe(true);
    expect(result.content).toContain('refused token [secret:DEMO_API_TOKEN]');
    expect(result.content).not.toContain(TOKEN);
  });
});

describe("the runtime's secrets in what an MCP server returns", () => {
  it('are hidden before the result is cut, so no part of one shows', async () => {
    const key = 'sk-live-4f8a2c9e7b1d6f3a';
    // The key runs over the 50-character cut; its marker, shorter, ends before it.
    const provider = broken('cut', { maxResultChars: 50 });
    const ctx = { ...toolContext(), secrets: new Map([['MODEL_KEY', key]]) };
    const text = `${'a'.repeat(20)}${key}${'z'.repeat(40)}`;
    const result = await provider.invoke('mcp/cut/echo', { text }, ctx);
    const shown = `{"text":"${'a'.repeat(20)}[secret:MODEL_KEY]zzz\n[output cut`;
    expect(result.content.startsWith(shown)).toBe(true);
    expect(result.content).not.toContain(key.slice(0, 5));
  });
});

describe('a call stopped before it reached its MCP server', () => {
  it('says the turn was stopped, not that the server answered with an error', async () => {
    const provider = broken('hang-list');
    const stop = new AbortController();
    stop.abort();
    const result = await provider.invoke('mcp/hang-list/echo', { text: 'hi' }, toolContext(stop.signal));
    expect(result).toEqual({
      content:
        'Error: mcp/hang-list/echo was not run: the turn was stopped while toolseam waited for MCP server "hang-list" to list its tools.',
      isError: true,
      notRun: 'stopped',
    });
  });
});
