import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import { toolsPage } from '../../../src/tools/registry/tools-page.js';
import { renderToolsPage } from '../../../src/tools/registry/tools-page-text.js';
import { type Bench, makeBench, type Tools, toolsOn } from './builtin-fixture.js';

let bench: Bench;
beforeEach(async () => {
  bench = await makeBench();
});
afterEach(() => bench.cleanup());

/** The Tools page of a bench's built-in tools, as `toolseam tools` shows it. */
async function pageOf(tools: Tools) {
  const registry = createToolRegistry();
  for (const provider of tools.providers) registry.register(provider);
  try {
    const page = await toolsPage(registry);
    return { page, text: renderToolsPage(page) };
  } finally {
    await registry.close();
  }
}

function shellTools(tools: Tools): string[] {
  return [...(tools.providers.find((p) => p.name === 'builtin/shell')?.tools.keys() ?? [])];
}

describe('where no sandbox can start, bash is not offered', () => {
  it('when bubblewrap is missing, and the Tools page says why and what would offer it', async () => {
    const missing = join(bench.dir, 'no-such', 'bwrap');
    const tools = toolsOn(bench, { shell: { bwrap: missing } });
    expect(shellTools(tools)).toEqual([]);
    const { page, text } = await pageOf(tools);
    expect(page.rows.map((row) => row.name)).not.toContain('bash');
    expect(page.rows.map((row) => row.name)).toContain('read_file');
    const failure = page.failures.find((f) => f.provider === 'builtin/shell');
    expect(failure?.message).toBe(
      `bash is not offered: no sandbox can start here (the bubblewrap program ${missing} does not exist or cannot be run). To offer it unconfined, set "shell": {"sandbox": "off"} in toolseam.json.`,
    );
    expect(text).toContain('bash is not offered');
  });

  it('when the program cannot start a sandbox (as in a container without user namespaces)', async () => {
    const tools = toolsOn(bench, { shell: { bwrap: '/bin/false' } });
    expect(shellTools(tools)).toEqual([]);
    const { page } = await pageOf(tools);
    expect(page.failures.find((f) => f.provider === 'builtin/shell')?.message).toContain(
      '/bin/false could not start a sandbox (it exited with 1)',
    );
  });
});

describe('with "sandbox": "off"', () => {
  it('bash is offered, and its description and the Tools page say plainly that it is unconfined', async () => {
    const tools = toolsOn(bench, { shell: { sandbox: 'off', bwrap: join(bench.dir, 'no-such-bwrap') } });
    expect(shellTools(tools)).toEqual(['bash']);
    const { page, text } = await pageOf(tools);
    const bash = page.rows.find((row) => row.name === 'bash');
    expect(bash?.description).toContain('The shell is NOT sandboxed on this machine');
    expect(page.failures).toEqual([]);
    expect(text).toContain('NOT sandboxed');
    const ran = await tools.invoke('bash', { command: 'cat /etc/passwd | head -1' }, tools.turn());
    expect(ran.content).toMatch(/^root:/);
  });

  it('and sandboxed, the description says what the sandbox confines', async () => {
    const tools = toolsOn(bench);
    const bash = tools.providers.find((p) => p.name === 'builtin/shell')?.tools.get('bash');
    expect(bash?.description).toContain('It runs in a sandbox');
    expect(bash?.description).toContain('It has no network.');
  });
});
