import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  embeddingSelector,
  lexicalSelector,
  type ToolCatalog,
  type ToolSelector,
} from '../../src/retrieval/index.js';
import { Runtime } from '../../src/runtime/runtime.js';
import { openSessionStore } from '../../src/store/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { defineTool, inProcessProvider } from '../../src/tools/index.js';
import { createToolRegistry } from '../../src/tools/registry/tool-registry.js';
import { collect, turnEnd } from '../support/runtime-harness.js';

// A runtime on the scripted model in-process, with more tools than a turn offers: which ones a
// request carries is the selector's choice.

/** 60 tools no request names, and one whose description speaks of a blarg. */
function manyTools() {
  const tools = Array.from({ length: 60 }, (_, i) =>
    defineTool({ name: `tool_${i}`, description: `Does thing ${i}.`, risk: 'safe', handler: () => 'ok' }),
  );
  tools.push(
    defineTool({ name: 'blarg_maker', description: 'Makes a blarg.', risk: 'safe', handler: () => 'made' }),
  );
  return inProcessProvider({ name: 'many', tools });
}

/** A tiny embedding of meaning: words of one concept share a dimension (stands in for a real model). */
const CONCEPTS = [
  ['zorp', 'quux', 'blarg'],
  ['fizz', 'wubba'],
];
async function embed(texts: readonly string[]): Promise<number[][]> {
  return texts.map((t) => CONCEPTS.map((words) => words.filter((w) => t.toLowerCase().includes(w)).length));
}

let dir: string;
let runtime: Runtime | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-selector-'));
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Runs one turn of `text` on a runtime with `selector`; returns the names each model request offered. */
async function offered(selector: ToolSelector | undefined, text: string, replies = 1): Promise<string[][]> {
  const script = [
    ...Array.from({ length: replies - 1 }, () => ({ toolCalls: [{ name: 'tool_1', arguments: {} }] })),
    { text: 'Done.' },
  ];
  const model = new ScriptedModel(script);
  const registry = createToolRegistry();
  registry.register(manyTools());
  const store = openSessionStore({ path: join(dir, 'toolseam.db') });
  runtime = new Runtime({ model, registry, store, k: 3, ...(selector ? { selector } : {}) });
  const events = await collect(await (await runtime.session('s')).send(text));
  expect(turnEnd(events)).toMatchObject({ status: 'done', message: 'Done.' });
  return model.requests.map((r) => (r.tools ?? []).map((t) => t.name));
}

describe('the tool selector of a runtime', () => {
  it('chooses what a turn offers, once per turn, from a view of the catalog it made', async () => {
    const asked: string[] = [];
    const made: ToolCatalog[] = [];
    const pickTwo: ToolSelector = {
      catalog(tools, k) {
        const catalog = lexicalSelector.catalog(tools, k);
        made.push(catalog);
        return catalog;
      },
      async select(view, query) {
        asked.push(query);
        expect(made).toContain(view.catalog);
        const tools = ['tool_7', 'tool_42'].map((name) => view.get(name)).filter((t) => t !== undefined);
        return { tools, relevance: new Map([['tool_42', 2]]) };
      },
    };
    const requests = await offered(pickTwo, 'anything at all', 2);
    expect(asked).toEqual(['anything at all']);
    expect(requests).toHaveLength(2);
    for (const names of requests) {
      expect(names).toEqual(expect.arrayContaining(['tool_7', 'tool_42', 'tool_search', 'tool_schema']));
      expect(names).not.toContain('tool_3');
    }
  });

  it('by words (the default), does not offer a tool only its meaning matches', async () => {
    const [names] = await offered(undefined, 'I need a quux');
    expect(names).not.toContain('blarg_maker');
    expect(names).toContain('tool_search');
  });

  it('by words and meaning (embeddingSelector), offers the tool whose meaning matches the request', async () => {
    const [names] = await offered(embeddingSelector(embed), 'I need a quux');
    expect(names).toContain('blarg_maker');
  });

  it('by words and meaning, still ranks by words when the embeddings endpoint fails', async () => {
    const down = async (): Promise<number[][]> => {
      throw new Error('endpoint down');
    };
    const [names] = await offered(embeddingSelector(down), 'makes a blarg');
    expect(names).toContain('blarg_maker');
  });
});

describe('the Tools page', () => {
  it('says which ranking the last turn used', async () => {
    const selector = embeddingSelector(embed, { label: 'test:concepts' });
    await offered(selector, 'I need a quux');
    expect((await (runtime as Runtime).toolsPage()).ranking).toBe('words + embeddings (test:concepts)');
  });

  it('says "words" by default, and when the embeddings failed that turn', async () => {
    await offered(undefined, 'I need a quux');
    expect((await (runtime as Runtime).toolsPage()).ranking).toBe('words');
    await runtime?.close();
    const down = async (): Promise<number[][]> => {
      throw new Error('endpoint down');
    };
    await offered(embeddingSelector(down), 'makes a blarg');
    expect((await (runtime as Runtime).toolsPage()).ranking).toBe('words (embeddings failed this turn)');
  });
});
