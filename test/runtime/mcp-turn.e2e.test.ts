import { afterEach, describe, expect, it } from 'vitest';
import { createMcpProvider } from '../../src/tools/mcp/index.js';
import { toolsPage } from '../../src/tools/registry/tools-page.js';
import { brokenStdio, notesStdio, npmStdio } from '../support/mcp-servers.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const timeouts = { startMs: 5_000, listMs: 3_000, callMs: 1_500 };

describe('a turn over real and broken MCP servers', () => {
  it('goes on whatever the broken servers do, and the Tools page says why each tool is where it is', async () => {
    h = await startHarness({
      providers: [
        createMcpProvider(notesStdio('notes'), { timeouts }),
        createMcpProvider(brokenStdio('crashy', 'crash-at-start'), { timeouts }),
        createMcpProvider(brokenStdio('hangs', 'hang-list'), { timeouts }),
        createMcpProvider(brokenStdio('odd', 'odd'), { timeouts }),
      ],
      approvals: { policy: 'auto' },
      script: [
        {
          toolCalls: [
            { name: 'mcp_odd_wait', arguments: {} },
            { name: 'mcp_odd_boom', arguments: {} },
          ],
        },
        // After the crash: the server is started again on next use (after its back-off), and the client's reading applies.
        { delayMs: 1_500, toolCalls: [{ name: 'mcp_odd_count', arguments: { n: '3', tags: '["a","b"]' } }] },
        { text: 'Carried on.' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('do the odd things'));
    expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'Carried on.' });
    const byTool = new Map(callEnds(events).map((e) => [e.tool, e]));
    expect(byTool.get('mcp/odd/wait')?.isError).toBe(true);
    expect(byTool.get('mcp/odd/boom')?.isError).toBe(true);
    expect(byTool.get('mcp/odd/count')?.content).toBe('counted to 3 with a+b');

    const offered = h.standIn.requests[0]?.tools.map((t) => t.name) ?? [];
    expect(offered.some((n) => n.startsWith('mcp_notes_'))).toBe(true);
    expect(offered.some((n) => n.startsWith('mcp_crashy_') || n.startsWith('mcp_hangs_'))).toBe(false);

    const page = await toolsPage(h.registry);
    const failures = page.failures.map((f) => `${f.provider}: ${f.message}`).join('\n');
    expect(failures).toMatch(/crashy/);
    expect(failures).toMatch(/hangs/);
    const tree = page.rows.find((r) => r.name === 'mcp/odd/tree');
    expect(tree?.status).toBe('lifted');
    const undescribed = page.rows.find((r) => r.name === 'mcp/odd/a_b');
    expect(undescribed?.description).toContain('no description');
  }, 60_000);
});

describe('two turns over the real server-everything', () => {
  it('offer the same tools twice and say nothing about tools changing', async () => {
    h = await startHarness({
      providers: [
        createMcpProvider(npmStdio('everything', '@modelcontextprotocol/server-everything', 'dist/index.js')),
      ],
      script: [{ text: 'One.' }, { text: 'Two.' }],
    });
    // Each serving of the registry's tools, by the turn that asked for it.
    const registry = h.runtime.options.registry;
    const serve = registry.serve.bind(registry);
    const served: string[][] = [[], []];
    let turn = 0;
    registry.serve = async () => {
      const tools = await serve();
      served[turn]?.push(tools.stamp);
      return tools;
    };
    const session = await h.runtime.session('s');
    const first = await collect(await session.send('hello'));
    turn = 1;
    const second = await collect(await session.send('again'));
    expect(turnEnd(second)).toMatchObject({ status: 'done', message: 'Two.' });
    // the server said its list changed as it started, so the second turn served the tools again
    expect(served[1]?.length).toBeGreaterThan(0);
    expect(served[1]).not.toContain(served[0]?.at(-1));
    const [one, two] = h.standIn.requests;
    expect(one?.tools.length).toBeGreaterThan(10);
    expect(JSON.stringify(two?.tools)).toBe(JSON.stringify(one?.tools));
    expect([...first, ...second].filter((e) => e.type === 'notice')).toEqual([]);
  }, 60_000);
});
