import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/core/session-store.js';
import type { ToolProvider } from '../../src/core/tool.js';
import { MAX_KEPT_SURFACES, SessionSurfaces } from '../../src/runtime/surface/session-surfaces.js';
import type { SessionAgent } from '../../src/runtime/surface/tool-access.js';
import { openSessionStore } from '../../src/store/index.js';
import { createMcpProvider } from '../../src/tools/mcp/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { demoProvider } from '../support/demo-tools.js';
import { npmStdio } from '../support/mcp-servers.js';

const dirs: string[] = [];
const stores: SessionStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('session surfaces', () => {
  it('keeps only the most recently used ones, and builds a let-go one again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolseam-surfaces-'));
    dirs.push(dir);
    const store = openSessionStore({ path: join(dir, 'toolseam.db') });
    const registry = createToolRegistry();
    registry.register(demoProvider());
    const surfaces = new SessionSurfaces({ registry });
    const sessions = await Promise.all(
      Array.from({ length: MAX_KEPT_SURFACES + 8 }, (_, i) => store.createSession({ id: `s${i}` })),
    );
    const first = await surfaces.forSession(sessions[0] as never, undefined, () => {});
    const built = [first];
    for (const session of sessions.slice(1)) {
      // the first session keeps being used, so it is never the one let go
      expect(await surfaces.forSession(sessions[0] as never, undefined, () => {})).toBe(first);
      built.push(await surfaces.forSession(session, undefined, () => {}));
    }
    expect(surfaces.size).toBe(MAX_KEPT_SURFACES);
    const second = sessions[1] as never;
    const rebuilt = await surfaces.forSession(second, undefined, () => {});
    expect(rebuilt).not.toBe(built[1]);
    const last = sessions[sessions.length - 1] as never;
    expect(await surfaces.forSession(last, undefined, () => {})).toBe(built[built.length - 1]);
    expect(rebuilt.offered.map((t) => t.name)).toEqual(first.offered.map((t) => t.name));
    expect(surfaces.size).toBe(MAX_KEPT_SURFACES);
    await store.close();
  });
});

/** A provider whose listing a test rewrites; each listing hands out new objects, as a server's re-list does. */
function relayProvider(tools: Array<{ name: string; description: string }>) {
  const listeners = new Set<() => void>();
  const provider: ToolProvider = {
    name: 'relay',
    app: 'relay',
    own: false,
    async listTools() {
      return tools.map(({ name, description }) => ({
        name,
        description,
        parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
        risk: 'safe' as const,
        requiresApproval: false,
      }));
    },
    async invoke() {
      return { content: 'ran', isError: false };
    },
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const announce = (): void => {
    for (const listener of listeners) listener();
  };
  return { provider, tools, announce };
}

async function openSurfaces(provider: ToolProvider) {
  const dir = mkdtempSync(join(tmpdir(), 'toolseam-surfaces-'));
  dirs.push(dir);
  const store = openSessionStore({ path: join(dir, 'toolseam.db') });
  stores.push(store);
  const registry = createToolRegistry();
  registry.register(provider);
  const surfaces = new SessionSurfaces({ registry });
  const session = await store.createSession({ id: 's' });
  const notices: string[] = [];
  const turn = () =>
    surfaces.forSession(session, undefined, (event) => {
      if (event.type === 'notice') notices.push(event.message);
    });
  /** A turn of another session (made on first use), as the agent given. */
  const turnOf = async (id: string, agent?: SessionAgent) => {
    const other = (await store.getSession(id)) ?? (await store.createSession({ id }));
    return surfaces.forSession(other, agent, () => {});
  };
  return { registry, turn, turnOf, notices };
}

/** An agent that may use only the tools matching `tools`. */
function agentOf(...tools: string[]): SessionAgent {
  return { name: `only ${tools.join(' ')}`, config: { tools } };
}

const namesOf = (tools: readonly { name: string }[]): string[] => tools.map((t) => t.name);

describe('sessions seeing the same tools', () => {
  it('read one index, each through its own view: an agent sees only its tools, a session its own sticky ones', async () => {
    const relay = relayProvider([
      { name: 'relay/search', description: 'Search the relay.' },
      { name: 'relay/send', description: 'Send a message.' },
      { name: 'notes_write', description: 'Write a note down.' },
    ]);
    const { turnOf } = await openSurfaces(relay.provider);
    const a = await turnOf('a');
    const b = await turnOf('b');
    const narrow = await turnOf('c', agentOf('relay/*'));
    expect(b.retriever).not.toBe(a.retriever);
    expect(b.retriever.catalog).toBe(a.retriever.catalog);
    expect(narrow.retriever.catalog).toBe(a.retriever.catalog);
    expect(namesOf(narrow.offered)).toEqual(['relay/search', 'relay/send']);
    expect(namesOf(narrow.retriever.tools())).toEqual(['relay/search', 'relay/send']);
    expect(narrow.retriever.get('notes_write')).toBeUndefined();
    expect(namesOf(narrow.retriever.search('write a note down'))).not.toContain('notes_write');
    expect(namesOf(a.retriever.search('write a note down'))).toContain('notes_write');
    a.retriever.markUsed('relay/send');
    expect(a.retriever.sticky.has('relay/send')).toBe(true);
    expect(b.retriever.sticky.has('relay/send')).toBe(false);
  });

  it('bring the one index to a changed list, while a turn under way keeps the tools it began with', async () => {
    const relay = relayProvider([
      { name: 'relay/search', description: 'Search the relay.' },
      { name: 'relay/send', description: 'Send a message.' },
    ]);
    const { turn, turnOf, notices } = await openSurfaces(relay.provider);
    const first = await turn();
    first.retriever.markUsed('relay/send');
    relay.tools.push({ name: 'relay/fetch', description: 'Fetch a message.' });
    relay.announce();
    const other = await turnOf('other');
    expect(other.retriever.catalog).toBe(first.retriever.catalog);
    expect(other.retriever.get('relay/fetch')).toBeDefined();
    // the first session's turn began before the list changed
    expect(first.retriever.get('relay/fetch')).toBeUndefined();
    expect(namesOf(first.retriever.tools())).toEqual(['relay/search', 'relay/send']);
    const next = await turn();
    expect(next.retriever.get('relay/fetch')).toBeDefined();
    expect(next.retriever.sticky.has('relay/send')).toBe(true);
    expect(notices).toEqual(["The tools changed since this session's last turn: 1 added (relay/fetch)."]);
  });

  it('give an agent whose list leaves out one side of a wire-name collision an index of its own', async () => {
    const relay = relayProvider([
      { name: 'relay_find', description: 'Find in the relay.' },
      { name: 'relay/find', description: 'Find a message.' },
      { name: 'relay/send', description: 'Send a message.' },
    ]);
    const { turnOf } = await openSurfaces(relay.provider);
    const whole = await turnOf('a');
    // relay/find would travel as relay_find, the real name of another tool
    expect(whole.byName.has('relay/find')).toBe(false);
    const narrow = await turnOf('b', agentOf('relay/*'));
    expect(namesOf(narrow.offered)).toEqual(['relay/find', 'relay/send']);
    expect(narrow.retriever.catalog).not.toBe(whole.retriever.catalog);
    expect(narrow.retriever.get('relay/find')?.description).toBe('Find a message.');
  });
});

describe("the note that a session's tools changed", () => {
  it('is not made when a server lists the same tools again after saying its list changed', async () => {
    const relay = relayProvider([{ name: 'relay/search', description: 'Search the relay.' }]);
    const { turn, notices } = await openSurfaces(relay.provider);
    const first = await turn();
    relay.announce();
    const second = await turn();
    // rebuilt from the new listing, which offers the model exactly what it was offered before
    expect(second).not.toBe(first);
    expect(second.stamp).not.toBe(first.stamp);
    expect(second.offered.map((t) => t.wire)).toEqual(first.offered.map((t) => t.wire));
    expect(notices).toEqual([]);
  });

  it('names the tools added, removed, and offered with a new description or schema', async () => {
    const relay = relayProvider([
      { name: 'relay/search', description: 'Search the relay.' },
      { name: 'relay/send', description: 'Send a message.' },
    ]);
    const { turn, notices } = await openSurfaces(relay.provider);
    await turn();
    relay.tools.splice(1, 1, { name: 'relay/fetch', description: 'Fetch a message.' });
    (relay.tools[0] as { description: string }).description = 'Search the relay for messages.';
    relay.announce();
    await turn();
    expect(notices).toEqual([
      "The tools changed since this session's last turn: 1 added (relay/fetch), 1 removed (relay/send), " +
        '1 offered with a new description or schema (relay/search).',
    ]);
  });

  it('is not made on the second turn over the real server-everything, which says its list changed as it starts', async () => {
    const provider = createMcpProvider(
      npmStdio('everything', '@modelcontextprotocol/server-everything', 'dist/index.js'),
    );
    try {
      const { turn, notices } = await openSurfaces(provider);
      const first = await turn();
      expect(first.offered.length).toBeGreaterThan(10);
      const second = await turn();
      // the server's notice moved the stamp, so the second turn rebuilt the surface from a new listing
      expect(second.stamp).not.toBe(first.stamp);
      expect(second.offered.map((t) => t.wire)).toEqual(first.offered.map((t) => t.wire));
      expect(notices).toEqual([]);
    } finally {
      await provider.close();
    }
  }, 60_000);
});
