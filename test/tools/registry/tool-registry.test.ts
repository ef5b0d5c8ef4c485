import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/core/json.js';
import { memoryLogger } from '../../../src/core/logger.js';
import type { ToolDefinition, ToolProvider, ToolResult } from '../../../src/core/tool.js';
import { loadApp } from '../../../src/tools/apps/load-app.js';
import { createMcpProvider } from '../../../src/tools/mcp/mcp-provider.js';
import { createToolRegistry, type ToolRegistry } from '../../../src/tools/registry/tool-registry.js';
import { brokenStdio, inProcess } from '../../support/mcp-servers.js';
import { toolContext } from '../../support/mcp-tool-context.js';

const examples = resolve(import.meta.dirname, '..', '..', '..', 'examples', 'apps');
const registries: ToolRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.close()));
});

function registry(options: Parameters<typeof createToolRegistry>[0] = {}): ToolRegistry {
  const r = createToolRegistry(options);
  registries.push(r);
  return r;
}

function tool(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: `Does ${name}.`,
    parameters: { type: 'object', properties: {} },
    risk: 'caution',
    requiresApproval: true,
    ...extra,
  };
}

/** A hand-written provider: fixed tools, echoes calls, counts closes. */
function fixed(
  name: string,
  tools: ToolDefinition[],
  options: { own?: boolean; list?: () => Promise<readonly ToolDefinition[]> } = {},
) {
  const state = { closed: 0, calls: [] as string[] };
  const provider: ToolProvider = {
    name,
    app: name,
    own: options.own ?? false,
    listTools: options.list ?? (async () => tools),
    async invoke(tool: string, args: JsonObject): Promise<ToolResult> {
      state.calls.push(tool);
      if (tool === 'explode') throw new Error('kaboom');
      return { content: `${name} ran ${tool} with ${JSON.stringify(args)}`, isError: false };
    },
    async preflight(tool: string) {
      if (tool === 'explode') throw new Error('check broke');
      return tool === 'guarded'
        ? { content: 'not today', isError: true, notRun: 'refused_by_tool' }
        : undefined;
    },
    async close() {
      state.closed += 1;
    },
  };
  return { provider, state };
}

describe('the tool registry', () => {
  it('serves built-ins, an app and an MCP server, tagged with provider, app and group, platform first', async () => {
    const r = registry();
    r.register(createMcpProvider(inProcess('notes')));
    r.register(await loadApp(join(examples, 'unit-converter')));
    r.register(
      fixed(
        'builtin',
        [tool('read_file', { group: { key: 'files', own: true, purpose: 'Read and change files.' } })],
        { own: true },
      ).provider,
    );
    const served = await r.serve();
    expect(served.tools[0]).toMatchObject({ name: 'read_file', provider: 'builtin', app: 'builtin' });
    expect(served.tools.find((t) => t.name === 'convert_length')).toMatchObject({
      provider: 'unit-converter',
      app: 'unit-converter',
    });
    expect(served.tools.find((t) => t.name === 'mcp/notes/lookup')).toMatchObject({
      provider: 'mcp/notes',
      app: 'notes',
    });
    expect(served.groups.map((g) => g.key)).toEqual(['files', 'mcp/notes', 'unit-converter']);
    expect(served.failures).toEqual([]);
  });

  it('registers a provider under the app name it is given', async () => {
    const r = registry();
    r.register(fixed('calendar-tools', [tool('cal_list')]).provider, {
      app: 'calendar',
      purpose: 'Your calendar.',
    });
    const [t] = (await r.serve()).tools;
    expect(t).toMatchObject({
      provider: 'calendar-tools',
      app: 'calendar',
      group: { key: 'calendar', own: false, purpose: 'Your calendar.' },
    });
  });

  it('keeps a non-platform provider out of the platform groups', async () => {
    const r = registry();
    r.register(fixed('sneaky', [tool('x', { group: { key: 'files', own: true, purpose: '' } })]).provider);
    expect((await r.serve()).tools[0]?.group).toEqual({ key: 'files', own: false, purpose: '' });
  });

  it('serves each name from one provider, the platform first, and records the duplicate', async () => {
    const r = registry();
    const app = fixed('helper-app', [tool('read_file'), tool('helper_only')]);
    r.register(app.provider);
    r.register(fixed('builtin', [tool('read_file')], { own: true }).provider);
    const served = await r.serve();
    expect(served.tools.filter((t) => t.name === 'read_file').map((t) => t.provider)).toEqual(['builtin']);
    expect(served.failures).toEqual([
      {
        provider: 'helper-app',
        app: 'helper-app',
        kind: 'duplicate',
        message:
          'not served because another provider already serves the same name: read_file (served by builtin).',
      },
    ]);
    expect((await r.invoke('read_file', {}, toolContext())).content).toBe('builtin ran read_file with {}');
  });

  it('costs a failing or hanging provider only its own tools, recording why once', async () => {
    const r = registry({ listTimeoutMs: 1500 });
    r.register(fixed('hangs', [], { list: () => new Promise(() => {}) }).provider);
    r.register(
      fixed('throws', [], {
        list: async () => {
          throw new Error(`index missing ${'!'.repeat(400)}`);
        },
      }).provider,
    );
    r.register(fixed('fine', [tool('ok')]).provider);
    r.register(createMcpProvider(brokenStdio('crashy', 'crash-at-start')));
    await r.serve();
    const served = await r.serve();
    expect(served.tools.map((t) => t.name)).toEqual(['ok']);
    const byProvider = Object.fromEntries(served.failures.map((f) => [f.provider, f.message]));
    expect(Object.keys(byProvider).sort()).toEqual(['hangs', 'mcp/crashy', 'throws']);
    expect(served.failures).toHaveLength(3);
    expect(byProvider.hangs).toBe('hangs did not list its tools within 1.5 s, so none of them are offered.');
    expect(byProvider.throws?.length).toBe(300);
    expect(byProvider.throws?.endsWith('…')).toBe(true);
    expect(byProvider['mcp/crashy']).toContain('notes.db is locked');
  });

  it('waits for the providers a list of tool names belongs to, and only those', async () => {
    const r = registry();
    const asked: string[] = [];
    let listed!: () => void;
    const slow = fixed('mcp/slow', [tool('mcp/slow/echo')]).provider;
    const waits = new Promise<void>((done) => {
      listed = done;
    });
    r.register({
      ...slow,
      whenListed: () => {
        asked.push('mcp/slow');
        return waits;
      },
    });
    const other = fixed('mcp/other', [tool('mcp/other/echo')]).provider;
    r.register({ ...other, whenListed: async () => void asked.push('mcp/other') });
    let done = false;
    const waiting = r.whenListed(['mcp/slow/echo', 'read_file']).then(() => {
      done = true;
    });
    await new Promise((tick) => setImmediate(tick));
    expect(asked).toEqual(['mcp/slow']);
    expect(done).toBe(false);
    listed();
    await waiting;
    expect(done).toBe(true);
  });

  it('clears a failure once the provider lists again', async () => {
    let broken = true;
    const r = registry();
    r.register(
      fixed('flaky', [tool('t')], {
        list: async () => {
          if (broken) throw new Error('not yet');
          return [tool('t')];
        },
      }).provider,
    );
    expect((await r.serve()).failures).toHaveLength(1);
    broken = false;
    const served = await r.serve();
    expect(served.failures).toEqual([]);
    expect(served.tools.map((t) => t.name)).toEqual(['t']);
  });

  it('lists a failed provider again in the background and moves the stamp when it comes back', async () => {
    let attempts = 0;
    const r = registry({ relistAfterMs: 20 });
    r.register(
      fixed('late', [tool('late_tool')], {
        list: async () => {
          attempts += 1;
          if (attempts < 3) throw new Error('warming up');
          return [tool('late_tool')];
        },
      }).provider,
    );
    const first = await r.serve();
    expect(first.tools).toEqual([]);
    expect(first.failures).toHaveLength(1);
    await expect.poll(() => r.surfaceStamp(), { timeout: 2000 }).not.toBe(first.stamp);
    expect(attempts).toBe(3);
    const again = await r.serve();
    expect(again.tools.map((t) => t.name)).toEqual(['late_tool']);
    expect(again.failures).toEqual([]);
  });

  it('brings back an MCP server that crashed at start once it starts cleanly', async () => {
    let crash = true;
    const target = inProcess('phoenix');
    const r = registry({ relistAfterMs: 20 });
    r.register(
      createMcpProvider(
        {
          ...target,
          connect: () => {
            if (crash) throw new Error('port in use');
            return target.connect();
          },
        },
        { backoff: { initialMs: 1, maxMs: 1 } },
      ),
    );
    const first = await r.serve();
    expect(first.failures[0]?.message).toContain('port in use');
    crash = false;
    await expect.poll(() => r.surfaceStamp(), { timeout: 2000 }).not.toBe(first.stamp);
    expect((await r.serve()).tools.map((t) => t.name)).toContain('mcp/phoenix/lookup');
  });

  it('costs a provider whose loadProblems throws or answers nonsense only a failure of its own', async () => {
    const r = registry();
    const throws = fixed('throws-problems', [tool('a_tool')]).provider;
    r.register({
      ...throws,
      loadProblems: () => {
        throw new Error('problems broke');
      },
    });
    const odd = fixed('odd-problems', [tool('b_tool')]).provider;
    r.register({ ...odd, loadProblems: () => 'not a list' as unknown as string[] });
    r.register(fixed('fine', [tool('ok')]).provider);
    const served = await r.serve();
    expect(served.tools.map((t) => t.name).sort()).toEqual(['a_tool', 'b_tool', 'ok']);
    const byProvider = Object.fromEntries(served.failures.map((f) => [f.provider, f.message]));
    expect(byProvider['throws-problems']).toBe(
      'throws-problems failed to say what its listing left out: problems broke',
    );
    expect(byProvider['odd-problems']).toContain('something other than a list of sentences');
    expect(byProvider.fine).toBeUndefined();
  });

  it("records the malformed entries of a listing as the provider's failure", async () => {
    const r = registry();
    r.register(fixed('messy', [{ name: '' } as ToolDefinition, tool('a'), tool('a')]).provider);
    r.register(createMcpProvider(brokenStdio('malformed', 'malformed')));
    const served = await r.serve();
    const messages = Object.fromEntries(served.failures.map((f) => [f.provider, f]));
    expect(messages.messy).toMatchObject({
      kind: 'listing',
      message: expect.stringContaining('entry 0 without a name'),
    });
    expect(messages['mcp/malformed']).toMatchObject({
      kind: 'listing',
      message: expect.stringContaining('without a name'),
    });
    expect(served.tools.filter((t) => t.name === 'a')).toHaveLength(1);
  });

  it('changes its surface stamp only when the tool surface changes', async () => {
    const r = registry();
    const s0 = r.surfaceStamp();
    r.register(createMcpProvider(inProcess('notes')));
    const s1 = r.surfaceStamp();
    expect(s1).not.toBe(s0);
    const first = await r.serve();
    expect((await r.serve()).stamp).toBe(first.stamp);
    expect(r.surfaceStamp()).toBe(first.stamp);

    expect(r.setEnabled('mcp/notes/ping', false)).toBe(true);
    expect(r.setEnabled('mcp/notes/ping', false)).toBe(false);
    const s2 = r.surfaceStamp();
    expect(s2).not.toBe(first.stamp);
    const off = await r.serve();
    expect(off.switchedOff.map((t) => t.name)).toEqual(['mcp/notes/ping']);
    expect(off.tools.map((t) => t.name)).not.toContain('mcp/notes/ping');
    expect(await r.invoke('mcp/notes/ping', {}, toolContext())).toMatchObject({
      isError: true,
      refusedBy: 'withdrawn',
    });

    await r.invoke('mcp/notes/add_tool', { name: 'fresh' }, toolContext());
    await expect.poll(() => r.surfaceStamp()).not.toBe(s2);
    expect((await r.serve()).tools.map((t) => t.name)).toContain('mcp/notes/fresh');

    const s3 = r.surfaceStamp();
    expect(await r.unregister('mcp/notes')).toBe(true);
    expect(r.surfaceStamp()).not.toBe(s3);
    expect((await r.serve()).tools).toEqual([]);
  });

  it('routes calls and pre-flight checks, and turns every provider failure into a result', async () => {
    const r = registry();
    const a = fixed('a', [tool('alpha'), tool('explode'), tool('guarded')]);
    r.register(a.provider);
    r.register(fixed('b', [tool('beta')]).provider);
    const ctx = toolContext();
    expect((await r.invoke('beta', { x: 1 }, ctx)).content).toBe('b ran beta with {"x":1}');
    expect(await r.invoke('nope', {}, ctx)).toMatchObject({ isError: true, refusedBy: 'unknown_tool' });
    expect(await r.invoke('explode', {}, ctx)).toEqual({
      content: 'Error: explode failed inside its provider: kaboom',
      isError: true,
    });
    expect(await r.preflight('guarded', {}, ctx)).toMatchObject({
      content: 'not today',
      notRun: 'refused_by_tool',
    });
    expect(await r.preflight('explode', {}, ctx)).toBeUndefined();
    expect(await r.preflight('beta', {}, ctx)).toBeUndefined();
    expect(a.state.calls).toEqual(['explode']);
  });

  it("hides the call's secrets in the log lines of a provider that threw", async () => {
    const logger = memoryLogger();
    const r = registry({ logger });
    const key = 'sk-live-4f8a2c9e7b1d6f3a';
    const leaky: ToolProvider = {
      ...fixed('leaky', [tool('leak')]).provider,
      async invoke() {
        throw new Error(`the backend refused ${key}`);
      },
      async preflight() {
        throw new Error(`the check refused ${key}`);
      },
    };
    r.register(leaky);
    const ctx = { ...toolContext(), secrets: new Map([['MODEL_KEY', key]]) };
    await r.preflight('leak', {}, ctx);
    await r.invoke('leak', {}, ctx);
    const logged = logger.records.map((record) => record.message);
    expect(logged).toEqual([
      'the pre-flight check of leak failed, so it refuses nothing: the check refused [secret:MODEL_KEY]',
      'leak threw inside provider "leaky" (app "leaky"): the backend refused [secret:MODEL_KEY]',
    ]);
  });

  it('stops waiting for a call once its turn is stopped: heeded at once, ignored after a grace', async () => {
    const r = registry();
    const started: string[] = [];
    r.register({
      name: 'slow',
      app: 'slow',
      own: false,
      listTools: async () => [tool('heeds'), tool('ignores'), tool('quick')],
      invoke(name, _args, ctx) {
        started.push(name);
        if (name === 'quick') return Promise.resolve({ content: 'done', isError: false });
        if (name === 'ignores') return new Promise<ToolResult>(() => {});
        return new Promise<ToolResult>((_, reject) => {
          ctx.signal.addEventListener('abort', () => reject(new Error('aborted by signal')));
        });
      },
    });
    const stopped =
      /^Error: (heeds|ignores) was stopped while it ran, because the turn was stopped\. Whether it did anything is unknown/;
    const heeding = new AbortController();
    const heeds = r.invoke('heeds', {}, toolContext(heeding.signal));
    setTimeout(() => heeding.abort(), 20);
    const heard = await heeds;
    expect(heard.content).toMatch(stopped);
    expect(heard.isError).toBe(true);

    const ignoring = new AbortController();
    const t0 = Date.now();
    const ignores = r.invoke('ignores', {}, toolContext(ignoring.signal));
    setTimeout(() => ignoring.abort(), 20);
    expect((await ignores).content).toMatch(stopped);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);

    // A call that settles on its own is heard even when its signal was already aborted.
    const gone = new AbortController();
    gone.abort();
    expect(await r.invoke('quick', {}, toolContext(gone.signal))).toEqual({
      content: 'done',
      isError: false,
    });
    expect(started).toEqual(['heeds', 'ignores', 'quick']);
  });

  it('leaves its providers and routes as they were when the serve is stopped', async () => {
    const r = registry();
    r.register(createMcpProvider(inProcess('notes')));
    expect((await r.serve()).tools.map((t) => t.name)).toContain('mcp/notes/ping');
    const stamp = r.surfaceStamp();
    const stop = new AbortController();
    stop.abort();
    await expect(r.serve(stop.signal)).rejects.toMatchObject({ code: 'stopped' });
    expect(r.failures()).toEqual([]);
    expect(r.surfaceStamp()).toBe(stamp);
    expect(r.providerOf('mcp/notes/ping')?.provider.name).toBe('mcp/notes');
    expect((await r.serve()).failures).toEqual([]);
  });

  it('refuses a second provider with the same name', () => {
    const r = registry();
    r.register(fixed('dup', []).provider);
    expect(() => r.register(fixed('dup', []).provider)).toThrow(/already registered/);
  });

  it('closes every provider when it closes', async () => {
    const r = createToolRegistry();
    const a = fixed('a', [tool('alpha')]);
    const mcp = createMcpProvider(inProcess('notes'));
    r.register(a.provider);
    r.register(mcp);
    await r.serve();
    expect(mcp.connected).toBe(true);
    await r.close();
    expect(a.state.closed).toBe(1);
    expect(mcp.connected).toBe(false);
    expect(() => r.register(fixed('late', []).provider)).toThrow(/closed/);
  });
});
