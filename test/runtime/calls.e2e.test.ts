import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import type { ToolProvider } from '../../src/core/tool.js';
import { openSessionStore } from '../../src/store/index.js';
import { builtinProviders } from '../../src/tools/builtin/index.js';
import { demoProvider, type RunCounts } from '../support/demo-tools.js';
import { callEnds, collect, type RuntimeHarness, startHarness, turnEnd } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * The MCP server `mcp/<server>` with one safe tool `mcp/<server>/<tool>` declaring `parameters` raw
 * (the seam sees them as a server sends them); `answer` writes its result from the arguments it got.
 */
function oneToolServer(
  server: string,
  tool: string,
  parameters: JsonObject,
  answer: (args: JsonObject) => string,
): ToolProvider {
  return {
    name: `mcp/${server}`,
    app: server,
    own: false,
    async listTools() {
      return [
        {
          name: `mcp/${server}/${tool}`,
          description: `The ${tool} tool of ${server}.`,
          parameters,
          risk: 'safe',
          requiresApproval: false,
        },
      ];
    },
    async invoke(_name, args) {
      return { content: answer(args), isError: false };
    },
  };
}

/** A provider with a raw declared schema the seam must lift: a free-form `filter` object. */
function rawProvider(seen: JsonObject[]): ToolProvider {
  const parameters = {
    type: 'object',
    properties: { filter: { type: 'object', description: 'Any filter.' }, limit: { type: 'integer' } },
    required: ['filter'],
  };
  return oneToolServer('records', 'search', parameters, (args) => {
    seen.push(args);
    return `found with ${JSON.stringify(args.filter)}`;
  });
}

describe('calls', () => {
  it('a free-form object is offered as JSON text and decoded back before the tool sees it', async () => {
    const seen: JsonObject[] = [];
    h = await startHarness({
      providers: [rawProvider(seen)],
      script: [
        { toolCalls: [{ name: 'mcp_records_search', arguments: { filter: '{"owner":"ana","open":true}' } }] },
        { echo: 'lastToolResult' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('find records'));
    const offered = h.standIn.requests[0]?.tools.find((t) => t.name === 'mcp_records_search');
    expect(offered?.parameters).toMatchObject({ properties: { filter: { type: 'string' } } });
    expect(seen).toEqual([{ filter: { owner: 'ana', open: true } }]);
    expect(turnEnd(events).message).toBe('found with {"owner":"ana","open":true}');
  });

  it('JSON text that does not parse is not run, and the model is told which argument and why', async () => {
    const seen: JsonObject[] = [];
    h = await startHarness({
      providers: [rawProvider(seen)],
      script: [
        { toolCalls: [{ name: 'mcp_records_search', arguments: { filter: '{"owner": "ana"' } }] },
        { echo: 'lastToolResult' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('find records'));
    expect(seen).toEqual([]);
    expect(callEnds(events)[0]).toMatchObject({ notRun: 'unreadable_arguments' });
    expect(callEnds(events)[0]?.content).toContain('filter');
  });

  it('argument names Anthropic refuses travel under safe keys, and the tool gets its declared names back', async () => {
    const seen: JsonObject[] = [];
    const parameters = {
      type: 'object',
      properties: { $top: { type: 'integer' }, 'Account Number': { type: 'string' } },
      required: ['Account Number'],
    };
    const provider = oneToolServer('graph', 'list', parameters, (args) => {
      seen.push(args);
      return `listed ${JSON.stringify(args)}`;
    });
    h = await startHarness({
      family: 'anthropic',
      providers: [provider],
      script: [
        { toolCalls: [{ name: 'mcp_graph_list', arguments: { _top: 5, Account_Number: 'A-1' } }] },
        { echo: 'lastToolResult' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('list accounts'));
    const offered = h.standIn.requests[0]?.tools.find((t) => t.name === 'mcp_graph_list');
    expect(offered?.parameters).toMatchObject({
      properties: { _top: { type: 'integer' }, Account_Number: { type: 'string' } },
      required: ['Account_Number'],
    });
    expect(seen).toEqual([{ $top: 5, 'Account Number': 'A-1' }]);
    expect(turnEnd(events)).toMatchObject({
      status: 'done',
      message: 'listed {"$top":5,"Account Number":"A-1"}',
    });
  });

  it("hides a credential from this process's environment in a tool's result, as shell output does", async () => {
    process.env.TOOLSEAM_TEST_API_KEY = 'sk-test-0123456789abcdef';
    onTestFinished(() => {
      delete process.env.TOOLSEAM_TEST_API_KEY;
    });
    const provider = oneToolServer('files', 'read', { type: 'object', properties: {} }, () => {
      return `key=${process.env.TOOLSEAM_TEST_API_KEY}`;
    });
    h = await startHarness({
      providers: [provider],
      script: [{ toolCalls: [{ name: 'mcp_files_read', arguments: {} }] }, { echo: 'lastToolResult' }],
    });
    const events = await collect(await (await h.runtime.session('s')).send('read it'));
    expect(turnEnd(events).message).toBe('key=[secret:TOOLSEAM_TEST_API_KEY]');
  });

  it('a required argument that takes null is offered as optional, and left out it reaches the tool as null', async () => {
    const seen: JsonObject[] = [];
    const parameters = {
      type: 'object',
      properties: { title: { type: 'string' }, due: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      required: ['title', 'due'],
    };
    const provider = oneToolServer('tasks', 'add', parameters, (args) => {
      seen.push(args);
      return `added ${JSON.stringify(args)}`;
    });
    h = await startHarness({
      providers: [provider],
      script: [
        { toolCalls: [{ name: 'mcp_tasks_add', arguments: { title: 'call Ana' } }] },
        { echo: 'lastToolResult' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('add a task'));
    const offered = h.standIn.requests[0]?.tools.find((t) => t.name === 'mcp_tasks_add');
    expect(offered?.parameters).toMatchObject({
      properties: { due: { type: 'string' } },
      required: ['title'],
    });
    expect(seen).toEqual([{ title: 'call Ana', due: null }]);
    expect(turnEnd(events).message).toBe('added {"title":"call Ana","due":null}');
  });

  it('the loop breaker refuses the same call with the same arguments after the repeat limit', async () => {
    const counts: RunCounts = new Map();
    const same = { toolCalls: [{ name: 'lookup_weather', arguments: { city: 'Oslo' } }] };
    h = await startHarness({
      providers: [demoProvider(counts)],
      limits: { repeatLimit: 2 },
      script: [same, same, same, { text: 'ok' }],
    });
    const events = await collect(await (await h.runtime.session('s')).send('weather'));
    expect(counts.get('lookup_weather')).toBe(2);
    expect(callEnds(events)[2]).toMatchObject({ notRun: 'loop_breaker', refusedBy: 'loop_breaker' });
  });

  it('a turn stops calling tools at its limit and stops calling the model at its own', async () => {
    const counts: RunCounts = new Map();
    const call = (city: string) => ({ toolCalls: [{ name: 'lookup_weather', arguments: { city } }] });
    h = await startHarness({
      providers: [demoProvider(counts)],
      limits: { maxToolCalls: 2, maxModelCalls: 3 },
      script: [call('A'), call('B'), call('C'), { text: 'never' }],
    });
    const events = await collect(await (await h.runtime.session('s')).send('weather everywhere'));
    expect(counts.get('lookup_weather')).toBe(2);
    expect(callEnds(events)[2]).toMatchObject({ notRun: 'limit_reached' });
    expect(turnEnd(events)).toMatchObject({ status: 'limit' });
  });

  it('a call may use the wire name or the real name, in any turn', async () => {
    const seen: JsonObject[] = [];
    h = await startHarness({
      providers: [rawProvider(seen)],
      script: [
        { toolCalls: [{ name: 'mcp_records_search', arguments: { filter: '{}' } }] },
        { text: 'one' },
        { toolCalls: [{ name: 'mcp/records/search', arguments: { filter: '{"a":1}' } }] },
        { text: 'two' },
      ],
    });
    const session = await h.runtime.session('s');
    await collect(await session.send('first'));
    await collect(await session.send('second'));
    expect(seen).toEqual([{ filter: {} }, { filter: { a: 1 } }]);
  });
});

describe('secrets in a result that a tool cuts', () => {
  it("read_file is handed the runtime's secrets, so a long line's cut leaves no part of one", async () => {
    const key = 'sk-live-4f8a2c9e7b1d6f3a';
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-cut-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'long.txt'), `${'x'.repeat(1990)}${key}\n`);
    const books = openSessionStore({ path: join(dir, 'books.db') });
    onTestFinished(() => books.close());
    h = await startHarness({
      providers: builtinProviders({ workspace: [dir], memory: books, tasks: books }),
      workspace: [dir],
      secrets: new Map([['MODEL_KEY', key]]),
      script: [
        { toolCalls: [{ name: 'read_file', arguments: { path: join(dir, 'long.txt') } }] },
        { text: 'ok' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('read it'));
    const content = callEnds(events)[0]?.content ?? '';
    expect(content).toContain('[secret:MODEL_KEY]');
    expect(content).not.toContain(key.slice(0, 5));
    const sent = JSON.stringify(h.standIn.requests);
    expect(sent).not.toContain(key.slice(0, 5));
  });
});

describe('a file longer than one result', () => {
  it('read_file stops within the result limit and says where to read on; the runtime cuts nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-room-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const text = Array.from({ length: 600 }, (_, i) => `line ${i + 1} ${'z'.repeat(60)}`).join('\n');
    writeFileSync(join(dir, 'big.txt'), `${text}\n`);
    const books = openSessionStore({ path: join(dir, 'books.db') });
    onTestFinished(() => books.close());
    h = await startHarness({
      providers: builtinProviders({ workspace: [dir], memory: books, tasks: books }),
      workspace: [dir],
      script: [{ toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] }, { text: 'ok' }],
    });
    const events = await collect(await (await h.runtime.session('s')).send('read it'));
    const content = callEnds(events)[0]?.content ?? '';
    expect(content).not.toContain('[the result was cut');
    expect(content).toMatch(
      /\[lines 1–\d+ of 600, as many as fit in one result\. Call read_file with offset \d+ to read on\.\]$/,
    );
  });
});
