import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { openSessionStore } from '../../src/store/index.js';
import type { ScriptRequest } from '../../src/testing/recorded-request.js';
import { builtinProviders } from '../../src/tools/builtin/index.js';
import { defineTool, field, inProcessProvider } from '../../src/tools/index.js';
import { callEnds, collect, type RuntimeHarness, startHarness } from '../support/runtime-harness.js';

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a bash output longer than a result', () => {
  it('is kept whole: the model gets its start, its end (the error line and the exit status) and an id that tool_result_read reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-long-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const books = openSessionStore({ path: join(dir, 'books.db') });
    onTestFinished(() => books.close());
    const command = 'echo first-line; seq 1 60000; echo "boom: the real error" >&2; exit 3';
    const idIn = (r: ScriptRequest) =>
      /kept as \\?"(result-[0-9a-f]{8})/.exec(JSON.stringify(r.messages))?.[1];
    h = await startHarness({
      providers: builtinProviders({ workspace: [dir], memory: books, tasks: books }),
      workspace: [dir],
      approvals: { policy: 'auto' },
      script: [
        { toolCalls: [{ name: 'bash', arguments: { command } }] },
        {
          respond: (r) => ({
            toolCalls: [
              {
                name: 'tool_result_read',
                arguments: { id: idIn(r) ?? '', line_from: 30_002, line_to: 30_003 },
              },
            ],
          }),
        },
        { text: 'seen' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('run it'));
    const [content = '', lines] = callEnds(events).map((end) => end.content ?? '');
    expect(content.startsWith('first-line\n1\n2\n')).toBe(true);
    expect(content.endsWith('59999\n60000\nboom: the real error\n[exit code 3]')).toBe(true);
    expect(content).toMatch(/The whole result is kept as "result-[0-9a-f]{8}": call tool_result_read/);
    expect(content).not.toContain('characters of output left out');
    expect(content.length).toBeLessThanOrEqual(20_000);
    // line 1 is first-line, so the number n is on line n + 1
    expect(lines).toBe('30002: 30001\n30003: 30002\n[lines 30004–60003 follow]');
    const store = openSessionStore({ path: h.dbPath });
    onTestFinished(() => store.close());
    const kept = await store.getFullResult(idIn(h.standIn.requests[1] as ScriptRequest) ?? '');
    expect(kept).toMatchObject({ sessionId: 's', tool: 'bash' });
    expect(kept?.content.split('\n')).toHaveLength(60_003);
  });
});

describe('a file longer than a result, read with read_file', () => {
  it('pages by its own offset: each part fits the bound whole and says where to read on, naming no kept result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-long-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const books = openSessionStore({ path: join(dir, 'books.db') });
    onTestFinished(() => books.close());
    writeFileSync(
      join(dir, 'big.txt'),
      Array.from({ length: 5_000 }, (_, i) => `row ${i + 1} ${'-'.repeat(40)}`).join('\n'),
    );
    const next = (r: ScriptRequest) =>
      Number(/Call read_file with offset (\d+)/.exec(JSON.stringify(r.messages.at(-1)))?.[1]);
    h = await startHarness({
      providers: builtinProviders({ workspace: [dir], memory: books, tasks: books }),
      workspace: [dir],
      script: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt' } }] },
        {
          respond: (r) => ({
            toolCalls: [{ name: 'read_file', arguments: { path: 'big.txt', offset: next(r) } }],
          }),
        },
        { text: 'read' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('read it'));
    const [first = '', second = ''] = callEnds(events).map((end) => end.content ?? '');
    const goOn = Number(/Call read_file with offset (\d+) to read on/.exec(first)?.[1]);
    expect(goOn).toBeGreaterThan(1);
    expect(first.length).toBeLessThanOrEqual(20_000);
    expect(second.startsWith(`${String(goOn).padStart(6)}\trow ${goOn} `)).toBe(true);
    for (const part of [first, second]) expect(part).not.toMatch(/tool_result_read|kept as/);
    // the runtime had nothing to cut: what is stored is what the model read
    const store = openSessionStore({ path: h.dbPath });
    onTestFinished(() => store.close());
    const calls = await store.listToolCalls({ sessionId: 's' });
    expect(calls.map((c) => c.result)).toEqual([first, second]);
  });
});

describe("the runtime's cut of a result too long to send", () => {
  const long = `${'start '.repeat(2000)}${'middle '.repeat(3000)}the last line`;
  const tools = inProcessProvider({
    name: 'longs',
    tools: [
      defineTool({
        name: 'long_report',
        description: 'Writes a long report.',
        risk: 'safe',
        handler: () => long,
      }),
      defineTool({
        name: 'long_pages',
        description: 'Writes a long page of a report.',
        risk: 'safe',
        fields: { offset: field.integer({ description: 'Where to start.', min: 0, default: 0 }) },
        pagesBy: 'offset',
        handler: () => long,
      }),
    ],
  });

  it('keeps the start and the end within the limit, and names an argument only for a tool that pages by one', async () => {
    h = await startHarness({
      providers: [tools],
      script: [
        {
          toolCalls: [
            { name: 'long_report', arguments: {} },
            { name: 'long_pages', arguments: {} },
          ],
        },
        { text: 'seen' },
      ],
    });
    const events = await collect(await (await h.runtime.session('s')).send('report'));
    const [report, pages] = callEnds(events).map((end) => end.content);
    for (const content of [report, pages]) {
      expect(content?.length).toBeLessThanOrEqual(20_000);
      expect(content?.startsWith('start start')).toBe(true);
      expect(content?.endsWith('middle the last line')).toBe(true);
    }
    expect(pages).toMatch(/\[… [\d,]+ characters left out here: a result holds at most 20,000\./);
    // a tool without paging of its own: kept whole, and the note names the tool that reads the rest
    expect(report).toMatch(
      /\[… [\d,]+ of [\d,]+ characters left out here\. The whole result is kept as "result-[0-9a-f]{8}": call tool_result_read/,
    );
    expect(pages).toContain('call long_pages again with offset set to the part you need');
  });

  it('refuses a tool that says it pages by an argument it does not have', () => {
    expect(() =>
      defineTool({
        name: 'bad_pages',
        description: 'Pages by nothing.',
        pagesBy: 'offset',
        handler: () => 'x',
      }),
    ).toThrow(/pagesBy names offset, which is not one of its fields/);
  });
});
