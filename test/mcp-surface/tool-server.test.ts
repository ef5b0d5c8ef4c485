import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { conformParameters } from '../../src/seam/index.js';
import { defineTool, inProcessProvider } from '../../src/tools/index.js';
import { memoryClient, servingRuntime, textOf } from './serve-harness.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setUp(config: Record<string, unknown> = {}, answer?: Parameters<typeof memoryClient>[2]) {
  const serving = await servingRuntime(config);
  closers.push(() => serving.close());
  const connection = await memoryClient(serving.runtime, serving.patterns, answer);
  closers.push(() => connection.close());
  return { ...serving, ...connection };
}

describe('the MCP surface over the in-memory transport', () => {
  it('lists the default tools with portable schemas, wire names, descriptions and hints', async () => {
    const { client } = await setUp();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['read_file', 'memory_save', 'task_list', 'lookup_weather']),
    );
    // not the shell, not ask_user: only the file, memory and task tools and the apps'
    expect(names).not.toContain('bash');
    expect(names).not.toContain('ask_user');
    for (const tool of tools) {
      expect(conformParameters(tool.inputSchema).verdict, tool.name).toBe('portable');
      expect(tool.description, tool.name).not.toBe('');
    }
    const weather = tools.find((t) => t.name === 'lookup_weather');
    expect(weather?.annotations).toEqual({ readOnlyHint: true, destructiveHint: false });
    expect(tools.find((t) => t.name === 'archive_mail')?.annotations?.destructiveHint).toBe(true);
  });

  it('serves only what the config\'s "serve" globs name', async () => {
    const { client } = await setUp({ serve: { tools: ['lookup_*', 'memory_save'] } });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['lookup_weather', 'memory_save']);
    const refused = await client.callTool({ name: 'read_file', arguments: { path: 'x' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('there is no tool named read_file');
  });

  it('runs a call and records it in a session of its own', async () => {
    const { client, runtime, counts, served } = await setUp();
    const result = await client.callTool({ name: 'lookup_weather', arguments: { city: 'Oslo' } });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe('Sunny in Oslo.');
    expect(counts.get('lookup_weather')).toBe(1);
    const session = await served.session();
    const store = runtime.options.store;
    expect((await store.getSession(session.sessionId))?.title).toBe('MCP: memory-client 1.0.0');
    const calls = await store.listToolCalls({ turnId: session.turnId });
    expect(calls.map((c) => [c.tool, c.status])).toEqual([['lookup_weather', 'done']]);
  });

  it("runs toolseam's own tools: remembers, recalls, reads a workspace file and writes one once approved", async () => {
    const { client, dir } = await setUp({}, () => ({ action: 'accept', content: {} }));
    writeFileSync(join(dir, 'plan.txt'), 'first line\nsecond line\n');
    const saved = await client.callTool({ name: 'memory_save', arguments: { text: 'Ana prefers tea' } });
    expect(saved.isError).toBe(false);
    const recalled = await client.callTool({ name: 'memory_recall', arguments: { query: 'tea' } });
    expect(textOf(recalled)).toContain('Ana prefers tea');
    const read = await client.callTool({ name: 'read_file', arguments: { path: join(dir, 'plan.txt') } });
    expect(read.isError).toBe(false);
    expect(textOf(read)).toContain('second line');
    const written = await client.callTool({
      name: 'write_file',
      arguments: { path: join(dir, 'out.txt'), content: 'done' },
    });
    expect(written.isError, textOf(written)).toBe(false);
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('done');
  });

  it('refuses unreadable, unknown and over-limit calls as isError results, with the reason', async () => {
    const { client, counts } = await setUp();
    const unknownKey = await client.callTool({
      name: 'lookup_weather',
      arguments: { city: 'Oslo', town: 'x' },
    });
    expect(unknownKey.isError).toBe(true);
    expect(textOf(unknownKey)).toMatch(/town/);
    const tooLong = await client.callTool({ name: 'lookup_weather', arguments: { city: 'x'.repeat(81) } });
    expect(tooLong.isError).toBe(true);
    expect(textOf(tooLong)).toMatch(/80/);
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(textOf(unknown)).toContain('there is no tool named no_such_tool');
    expect(counts.get('lookup_weather')).toBeUndefined();
  });

  it('refuses a call the deny-list covers in its own words, and one a hook blocks', async () => {
    const { client, counts } = await setUp({
      denyList: [{ tool: 'archive_mail', reason: 'mail is kept for the audit' }],
      hooks: { preToolUse: [{ match: 'lookup_weather', command: 'echo "BLOCKED: no weather on Sundays"' }] },
    });
    const denied = await client.callTool({ name: 'archive_mail', arguments: { id: 3 } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain('mail is kept for the audit');
    const hooked = await client.callTool({ name: 'lookup_weather', arguments: { city: 'Oslo' } });
    expect(hooked.isError).toBe(true);
    expect(textOf(hooked)).toContain('no weather on Sundays');
    expect(counts.size).toBe(0);
  });

  it("refuses a call by the tool's own preflight before anyone is asked", async () => {
    const asked: string[] = [];
    const { client, counts } = await setUp({}, (message) => {
      asked.push(message);
      return { action: 'accept', content: {} };
    });
    const refused = await client.callTool({
      name: 'send_email',
      arguments: { to: 'x@blocked.example', body: 'hi' },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('on the blocked list');
    expect(asked).toEqual([]);
    expect(counts.get('send_email')).toBeUndefined();
  });

  it('puts a question through elicitation when the client can ask: accepted runs, declined refuses', async () => {
    let accept = true;
    const { client, counts, asked } = await setUp({}, () =>
      accept ? { action: 'accept', content: {} } : { action: 'decline' },
    );
    const sent = await client.callTool({ name: 'send_email', arguments: { to: 'a@b.example', body: 'hi' } });
    expect(sent.isError).toBe(false);
    expect(textOf(sent)).toBe('sent to a@b.example');
    expect(asked[0]).toContain('send_email');
    accept = false;
    const declined = await client.callTool({
      name: 'send_email',
      arguments: { to: 'c@d.example', body: 'hi' },
    });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toContain('declined');
    expect(counts.get('send_email')).toBe(1);
  });

  it('holds an "always" ticked in the client for the calls its scope covers, in this connection', async () => {
    const { client, counts, asked } = await setUp({}, () => ({
      action: 'accept',
      content: { always: true },
    }));
    await client.callTool({ name: 'send_email', arguments: { to: 'a@b.example', body: 'one' } });
    // send_email's "always" covers mail to the same person, whatever it says
    const second = await client.callTool({
      name: 'send_email',
      arguments: { to: 'a@b.example', body: 'two' },
    });
    expect(textOf(second)).toBe('sent to a@b.example');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/a@b\.example/);
    await client.callTool({ name: 'send_email', arguments: { to: 'c@d.example', body: 'three' } });
    expect(asked).toHaveLength(2);
    expect(counts.get('send_email')).toBe(3);
  });

  it('stores the question for a client that cannot ask; once approved, the identical call runs once', async () => {
    const { client, counts, runtime } = await setUp();
    const args = { to: 'a@b.example', body: 'hi' };
    const first = await client.callTool({ name: 'send_email', arguments: args });
    expect(first.isError).toBe(true);
    const id = /approval (ap-\w+)/.exec(textOf(first))?.[1] as string;
    expect(textOf(first)).toContain(`toolseam approve ${id} yes`);
    // asked again before anyone answered: still waiting, nothing asked twice
    const again = await client.callTool({ name: 'send_email', arguments: args });
    expect(textOf(again)).toContain(`approval ${id} still waits`);
    expect(await runtime.pendingApprovals()).toHaveLength(1);
    // other arguments are another call: the answer is bound to the first one's
    await runtime.respond(id, { kind: 'approve' });
    const other = await client.callTool({ name: 'send_email', arguments: { ...args, body: 'bye' } });
    expect(other.isError).toBe(true);
    expect(counts.get('send_email')).toBeUndefined();
    const approved = await client.callTool({ name: 'send_email', arguments: args });
    expect(approved.isError).toBe(false);
    expect(textOf(approved)).toBe('sent to a@b.example');
    expect(counts.get('send_email')).toBe(1);
    // once: the next identical call asks again
    const third = await client.callTool({ name: 'send_email', arguments: args });
    expect(third.isError).toBe(true);
    expect(textOf(third)).toContain('needs a person');
    expect(counts.get('send_email')).toBe(1);
  });

  it('follows the approval policy: auto runs a call that asks without asking, deny refuses it', async () => {
    const auto = await setUp({ approvals: 'auto' });
    const sent = await auto.client.callTool({
      name: 'send_email',
      arguments: { to: 'a@b.example', body: 'hi' },
    });
    expect(textOf(sent)).toBe('sent to a@b.example');
    const denying = await setUp({ approvals: 'deny' });
    const refused = await denying.client.callTool({
      name: 'send_email',
      arguments: { to: 'a@b.example', body: 'hi' },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('refuses every call that needs approval');
    expect(await denying.runtime.pendingApprovals()).toEqual([]);
  });

  it('answers the identical call with the refusal when the person said no', async () => {
    const { client, counts, runtime } = await setUp();
    const args = { to: 'a@b.example', body: 'hi' };
    const first = await client.callTool({ name: 'send_email', arguments: args });
    const id = /approval (ap-\w+)/.exec(textOf(first))?.[1] as string;
    await runtime.respond(id, { kind: 'deny', reason: 'not to that address' });
    const refused = await client.callTool({ name: 'send_email', arguments: args });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('not to that address');
    expect(counts.get('send_email')).toBeUndefined();
  });
});

describe('a connection that outlasts a change of tools', () => {
  it('lists and calls the tools the registry serves now, not those it served when the client came', async () => {
    const { client, runtime } = await setUp();
    let told = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      told += 1;
    });
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('roll_die');
    runtime.options.registry.register(
      inProcessProvider({
        name: 'dice',
        app: 'dice',
        group: { key: 'dice', own: false, purpose: 'Dice.' },
        tools: [
          defineTool({ name: 'roll_die', description: 'Rolls a die.', risk: 'safe', handler: () => '4' }),
        ],
      }),
    );
    // told once, after its next call, that the list it has is out of date
    await client.callTool({ name: 'lookup_weather', arguments: { city: 'Oslo' } });
    await client.callTool({ name: 'lookup_weather', arguments: { city: 'Bergen' } });
    expect(told).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('roll_die');
    expect(textOf(await client.callTool({ name: 'roll_die', arguments: {} }))).toBe('4');
    runtime.options.registry.setEnabled('lookup_weather', false);
    const off = await client.callTool({ name: 'lookup_weather', arguments: { city: 'Oslo' } });
    expect(off.isError).toBe(true);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('lookup_weather');
  });
});
