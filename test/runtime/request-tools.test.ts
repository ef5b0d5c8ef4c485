import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import type { WireTool } from '../../src/core/model.js';
import { type RuntimeTool, runtimeWireTool } from '../../src/runtime/calls/runtime-tool.js';
import { requestTools } from '../../src/runtime/surface/request-tools.js';
import type { TurnEnvironment } from '../../src/runtime/turn/turn-environment.js';
import { freshTurnState } from '../../src/runtime/turn/turn-state.js';
import type { OfferedTool } from '../../src/seam/index.js';

/** An offered tool as `requestTools` reads it: its name, definition and wire form. */
function offered(name: string): OfferedTool {
  const wire: WireTool = {
    name,
    description: `Does ${name}.`,
    parameters: { type: 'object', properties: {} },
  };
  return { name, wireName: name, definition: { name, description: wire.description }, wire } as OfferedTool;
}

const note: RuntimeTool = {
  definition: {
    name: 'note_read',
    description: 'Reads a note.',
    parameters: { type: 'object', properties: {} },
    risk: 'safe',
    requiresApproval: false,
  },
  run: async () => ({ content: 'a note', isError: false }),
};

/** The parts of a turn's environment `requestTools` reads. */
function envWith(tools: readonly OfferedTool[], maxTools: number): TurnEnvironment {
  return {
    model: { maxTools },
    surface: { byName: new Map(tools.map((t) => [t.name, t])) },
    gates: { denyList: [] },
    runtimeTools: new Map([[note.definition.name, note]]),
    logger: silentLogger,
  } as unknown as TurnEnvironment;
}

describe('requestTools', () => {
  const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map(offered) as [
    OfferedTool,
    OfferedTool,
    OfferedTool,
    OfferedTool,
    OfferedTool,
  ];
  const rank = new Map([
    ['a', 0.1],
    ['b', 0.9],
    ['c', 0.5],
  ]);

  it('carries the selection, then the tools asked for, then its own, when they all fit', () => {
    const env = envWith([a, b, c, d, e], 10);
    const state = freshTurnState(new Map());
    state.activated.add('d');
    state.activated.add('b');
    const out = requestTools(env, state, { selected: [a, b, c], reduced: false, rank });
    expect(out.tools.map((t) => t.name)).toEqual(['a', 'b', 'c', 'd', 'note_read']);
    expect([...out.carried].sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('leaves the least relevant of the selection out first when they do not fit, keeping their order', () => {
    const env = envWith([a, b, c, d, e], 4);
    const state = freshTurnState(new Map());
    state.activated.add('d');
    const out = requestTools(env, state, { selected: [a, b, c], reduced: false, rank });
    expect(out.tools.map((t) => t.name)).toEqual(['b', 'c', 'd', 'note_read']);
    expect([...out.carried].sort()).toEqual(['b', 'c', 'd']);
  });

  it('never carries a tool the provider refused this turn', () => {
    const env = envWith([a, b, c], 10);
    const state = freshTurnState(new Map());
    state.refused.add('b');
    const out = requestTools(env, state, { selected: [a, b, c], reduced: false, rank });
    expect(out.tools.map((t) => t.name)).toEqual(['a', 'c', 'note_read']);
  });
});

describe('runtimeWireTool', () => {
  it('gives the same wire form request after request, and a new one once the definition changed', () => {
    const first = runtimeWireTool(note);
    expect(runtimeWireTool(note)).toBe(first);
    expect(first).toEqual({
      name: 'note_read',
      description: 'Reads a note.',
      parameters: note.definition.parameters,
    });
    const changed = { ...note, definition: { ...note.definition } };
    (changed.definition as { description: string }).description = 'Reads a note, whole.';
    expect(runtimeWireTool(changed).description).toBe('Reads a note, whole.');
    // A definition changed in place (a host's own tool) is not answered with its old form.
    const mutable = { ...note.definition, name: 'scratch', description: 'One.', parameters: undefined };
    const tool = { definition: mutable, run: note.run } as unknown as RuntimeTool;
    const before = runtimeWireTool(tool);
    mutable.description = 'Two.';
    const after = runtimeWireTool(tool);
    expect(after).not.toBe(before);
    expect(after).toMatchObject({ description: 'Two.', parameters: { type: 'object', properties: {} } });
  });
});

describe('requestTools within a turn', () => {
  const [a, b, c] = ['a', 'b', 'c'].map(offered) as [OfferedTool, OfferedTool, OfferedTool];
  const turn = { selected: [a, b], reduced: false, rank: new Map([['a', 1]]) };

  it('gives the next request the same list while nothing it is made from changed', () => {
    const env = envWith([a, b, c], 10);
    const state = freshTurnState(new Map());
    const first = requestTools(env, state, turn);
    expect(requestTools(env, state, turn)).toBe(first);
    // Frozen, so what later steps keep by the list stays true of it.
    expect(Object.isFrozen(first.tools)).toBe(true);
    // Another turn's selection (another object) is its own list.
    expect(requestTools(env, state, { ...turn })).not.toBe(first);
  });

  it('makes a new list once a tool is asked for or refused, or one of the runtime’s own changed', () => {
    const env = envWith([a, b, c], 10);
    const state = freshTurnState(new Map());
    const first = requestTools(env, state, turn);
    state.activated.add('c');
    const asked = requestTools(env, state, turn);
    expect(asked.tools.map((t) => t.name)).toEqual(['a', 'b', 'c', 'note_read']);
    state.refused.add('b');
    expect(requestTools(env, state, turn).tools.map((t) => t.name)).toEqual(['a', 'c', 'note_read']);
    expect(first.tools.map((t) => t.name)).toEqual(['a', 'b', 'note_read']);
    // A host's own tool changed in place between two requests: the next one carries it as it is now.
    const mutable = { ...note.definition, name: 'scratch', description: 'One.' };
    const host = envWith([a, b, c], 10);
    (host.runtimeTools as Map<string, RuntimeTool>).set('scratch', { definition: mutable, run: note.run });
    const fresh = freshTurnState(new Map());
    const before = requestTools(host, fresh, turn);
    mutable.description = 'Two.';
    const after = requestTools(host, fresh, turn);
    expect(after).not.toBe(before);
    expect(after.tools.find((t) => t.name === 'scratch')?.description).toBe('Two.');
  });
});
