import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import type { RuntimeEvent } from '../../src/core/events.js';
import { memoryLogger } from '../../src/core/logger.js';
import type { ToolProvider } from '../../src/core/tool.js';
import { createRuntime } from '../../src/create-runtime.js';
import type { Runtime } from '../../src/runtime/runtime.js';
import { type ScriptTurn, type StandIn, startStandIn } from '../../src/testing/index.js';
import { demoProvider, parcelTools, type RunCounts } from '../support/demo-tools.js';
import { brokenStdio, notesStdio } from '../support/mcp-servers.js';
import { callEnds } from '../support/runtime-harness.js';

let dir: string;
let standIn: StandIn | undefined;
let runtime: Runtime | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-deny-'));
});
afterEach(async () => {
  await runtime?.close();
  await standIn?.close();
  runtime = undefined;
  standIn = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A runtime made as a host makes one: `toolseam.json` as data, read by the config reader, on a scripted model. */
async function start(
  json: Record<string, unknown>,
  script: readonly ScriptTurn[],
  tools: readonly ToolProvider[] = [demoProvider()],
) {
  standIn = await startStandIn({ family: 'openai', script });
  const config = parseConfig(json, { source: 'toolseam.json', baseDir: dir, env: {} });
  const logger = memoryLogger();
  runtime = await createRuntime({
    model: { provider: 'openai-compatible', model: 'demo', baseURL: standIn.baseURL, apiKey: 'stand-in' },
    config,
    store: join(dir, 'toolseam.db'),
    builtins: false,
    tools,
    logger,
  });
  const warnings = () => logger.records.filter((r) => r.level === 'warn' && r.scope === 'config');
  return { standIn, runtime, warnings };
}

async function turn(events: AsyncIterable<RuntimeEvent>): Promise<RuntimeEvent[]> {
  const out: RuntimeEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** The tool names request `i` offered the model. */
function offered(s: StandIn, i: number): string[] {
  return s.requests[i]?.tools.map((t) => t.name) ?? [];
}

describe('deny-list and disabledTools entries that match no tool', () => {
  it('are each warned about once, naming the entry and the nearest real name', async () => {
    const h = await start(
      {
        denyList: ['Lookup_weather', { tool: 'archve_*', reason: 'no archiving' }, 'send_email'],
        disabledTools: ['send_emial', 'lookup_weather'],
      },
      [{ text: 'one' }, { text: 'two' }],
    );
    await turn(await (await h.runtime.session('s')).send('hello'));
    expect(h.warnings().map((r) => r.message)).toEqual([
      '"denyList[0]" in the config ("Lookup_weather") matches no tool, so it refuses nothing; the nearest tool name is "lookup_weather".',
      '"denyList[1]" in the config ("archve_*") matches no tool, so it refuses nothing; the nearest tool name is "archive_mail".',
      '"disabledTools[0]" in the config ("send_emial") matches no tool, so it switches nothing off; the nearest tool name is "send_email".',
    ]);
    // A misspelt entry refuses nothing: the tool it was meant for is offered; the good entries work.
    expect(offered(h.standIn, 0)).toContain('archive_mail');
    expect(offered(h.standIn, 0)).not.toContain('send_email');
    expect(offered(h.standIn, 0)).not.toContain('lookup_weather');
    await turn(await (await h.runtime.session('s')).send('again'));
    expect(h.warnings()).toHaveLength(3);
  });

  it('say so when nothing is near, and when a server that did not list its tools may hold the name', async () => {
    const crashy = brokenStdio('crashy', 'crash-at-start');
    const h = await start(
      {
        denyList: ['mcp/crashy/wipe', 'zzzz_qqqq'],
        mcpServers: { crashy: { command: crashy.command, args: crashy.args } },
      },
      [{ text: 'ok' }],
    );
    await turn(await (await h.runtime.session('s')).send('hello'));
    const said = h.warnings().map((r) => r.message);
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(
      /^"denyList\[0\]" in the config \("mcp\/crashy\/wipe"\) matches no tool, so it refuses nothing; .*\(mcp\/crashy could not list its tools, so it may name one of those\)\.$/,
    );
    expect(said[1]).toBe(
      '"denyList[1]" in the config ("zzzz_qqqq") matches no tool, so it refuses nothing; no tool has a name close to it (`toolseam tools` lists them).',
    );
  });

  it("are checked against an MCP server's tools once it has listed them", async () => {
    const notes = notesStdio();
    const h = await start(
      {
        denyList: ['mcp/notes/serch', 'mcp/notes/lookup'],
        mcpServers: { notes: { command: notes.command, args: notes.args } },
      },
      [{ text: 'ok' }],
    );
    await turn(await (await h.runtime.session('s')).send('hello'));
    expect(h.warnings().map((r) => r.message)).toEqual([
      '"denyList[0]" in the config ("mcp/notes/serch") matches no tool, so it refuses nothing; the nearest tool name is "mcp/notes/search".',
    ]);
    expect(offered(h.standIn, 0)).toContain('mcp_notes_search');
    expect(offered(h.standIn, 0)).not.toContain('mcp_notes_lookup');
  });
});

describe('a tool the deny-list refuses outright', () => {
  it('is not offered, and a call to it anyway is refused with the rule’s reason, unrun', async () => {
    const counts: RunCounts = new Map();
    const h = await start(
      { denyList: [{ tool: 'archive_*', reason: 'archiving is off on this machine' }] },
      [{ toolCalls: [{ name: 'archive_mail', arguments: { id: 3 } }] }, { echo: 'lastToolResult' }],
      [demoProvider(counts)],
    );
    const events = await turn(await (await h.runtime.session('s')).send('archive mail 3'));
    expect(offered(h.standIn, 0)).toEqual(expect.arrayContaining(['lookup_weather', 'send_email']));
    expect(offered(h.standIn, 0)).not.toContain('archive_mail');
    expect(callEnds(events)[0]).toMatchObject({ refusedBy: 'deny_list' });
    expect(callEnds(events)[0]?.content).toContain('archiving is off on this machine');
    expect(counts.get('archive_mail')).toBeUndefined();
    expect(h.warnings()).toEqual([]);
  });

  it('is in neither the catalog nor tool_search, and tool_schema says the deny-list refuses it', async () => {
    const h = await start(
      { denyList: ['manage_parcel_7*'] },
      [
        { toolCalls: [{ name: 'tool_search', arguments: { query: 'parcel records number 7' } }] },
        { toolCalls: [{ name: 'tool_schema', arguments: { name: 'manage_parcel_7' } }] },
        { text: 'done' },
      ],
      [parcelTools(120)],
    );
    await turn(await (await h.runtime.session('s')).send('manage parcel 7'));
    const first = h.standIn.requests[0];
    expect(first?.tools.map((t) => t.name)).toContain('tool_search');
    const offeredOrListed = `${first?.system}\n${offered(h.standIn, 0).join('\n')}`;
    expect(offeredOrListed).toContain('manage_parcel_8');
    expect(offeredOrListed).not.toMatch(/manage_parcel_7\d?\b/);
    const search = h.standIn.requests[1]?.messages.at(-1);
    expect(JSON.stringify(search)).toContain('manage_parcel_');
    expect(JSON.stringify(search)).not.toMatch(/manage_parcel_7\d?\b/);
    const schema = h.standIn.requests[2]?.messages.at(-1);
    expect(JSON.stringify(schema)).toContain(
      "manage_parcel_7 is refused by the deny-list in toolseam's configuration, whatever its arguments",
    );
  });

  it('leaves subagent_run out of the request when the deny-list names it', async () => {
    const h = await start({ denyList: ['subagent_run'] }, [{ text: 'ok' }]);
    await turn(await (await h.runtime.session('s')).send('hello'));
    expect(offered(h.standIn, 0)).not.toContain('subagent_run');
    expect(offered(h.standIn, 0)).toContain('lookup_weather');
    expect(h.warnings()).toEqual([]);
  });

  it('a hook that refuses only some arguments keeps its tool offered', async () => {
    const h = await start(
      {
        hooks: {
          preToolUse: [
            { match: 'archive_mail', command: 'grep -q \'"id":3\' && echo "BLOCKED: not mail 3"; exit 0' },
          ],
        },
      },
      [{ text: 'ok' }],
    );
    await turn(await (await h.runtime.session('s')).send('hello'));
    expect(offered(h.standIn, 0)).toContain('archive_mail');
  });
});
