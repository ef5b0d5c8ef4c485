import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../src/core/logger.js';
import { DEFAULT_MCP_TIMEOUTS } from '../../../src/tools/mcp/mcp-config.js';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { brokenProviders } from '../../support/broken-providers.js';
import { brokenStdio } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const { broken, track } = brokenProviders();

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolseam-slow-start-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A server that answers initialize only once `go` is written (and not before). */
function lateServer(waitMs: number, log = memoryLogger()) {
  const go = join(dir, 'go');
  const provider = track(
    createMcpProvider(brokenStdio('late', 'start-when', [go]), { logger: log, timeouts: { waitMs } }),
  );
  return { provider, log, start: () => writeFile(go, '') };
}

describe('a server that is slow to start, or never answers', () => {
  it('is waited for 10 s at most by default before a listing goes on without it', () => {
    expect(DEFAULT_MCP_TIMEOUTS.waitMs).toBe(10_000);
    expect(DEFAULT_MCP_TIMEOUTS.waitMs).toBeLessThan(DEFAULT_MCP_TIMEOUTS.startMs);
  });

  it('is named after 3 s of silence, then left out saying why, while its start goes on', async () => {
    const log = memoryLogger();
    const provider = broken('hang-start', { logger: log, timeouts: { waitMs: 4_000 } });
    const error = await provider.listTools().catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'not_ready',
      server: 'hang-start',
      message:
        'MCP server "hang-start" has not finished starting after 4 s, so its tools are left out for now; ' +
        'toolseam goes on waiting in the background, and offers its tools from the next message once they arrive (a longer "waitMs" in "mcpTimeouts" waits longer).',
    });
    expect(log.records).toContainEqual({
      level: 'warn',
      scope: 'mcp',
      message:
        'MCP server "hang-start" has not finished starting after 3 s; toolseam waits for it up to 4 s before going on without its tools.',
      fields: { server: 'hang-start' },
    });
  });

  it('joins once it is up: its tools are announced as changed and listed', async () => {
    const { provider, log, start } = lateServer(300);
    let changes = 0;
    provider.onToolsChanged?.(() => {
      changes += 1;
    });
    await expect(provider.listTools()).rejects.toMatchObject({ kind: 'not_ready' });
    expect(provider.connected).toBe(false);
    await start();
    await expect.poll(() => changes).toBeGreaterThan(0);
    expect((await provider.listTools()).map((t) => t.name)).toContain('mcp/late/echo');
    expect(log.records.map((r) => r.message)).toContain(
      'MCP server "late" is up after all; its tools are offered from the next message.',
    );
  });

  it('says how a start it went on without ended, when it fails', async () => {
    const log = memoryLogger();
    const provider = broken('hang-start', { logger: log, timeouts: { waitMs: 200, startMs: 1_500 } });
    await expect(provider.listTools()).rejects.toMatchObject({ kind: 'not_ready' });
    await expect
      .poll(() => log.records.map((r) => r.message).join('\n'), { timeout: 20_000 })
      .toContain('MCP server "hang-start" did not finish starting within 1.5 s.');
  });

  it('is waited for by a call to one of its tools, which the listing bound does not cut short', async () => {
    const { provider, start } = lateServer(200);
    const call = provider.invoke('mcp/late/echo', { text: 'hi' }, toolContext());
    await expect(provider.listTools()).rejects.toMatchObject({ kind: 'not_ready' });
    await start();
    expect(await call).toEqual({ content: '{"text":"hi"}', isError: false });
  });
});
