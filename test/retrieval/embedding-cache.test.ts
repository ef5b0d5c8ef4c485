import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/logger.js';
import { configuredSelector } from '../../src/embedding-source.js';
import type { EmbeddingsConfig } from '../../src/embeddings-config.js';
import { CatalogView } from '../../src/retrieval/catalog-view.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { openTestStore, tempDbPath } from '../store/store-fixtures.js';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

const tools: RetrievalTool[] = [
  { name: 'weather_now', description: 'Current weather for a city' },
  { name: 'send_mail', description: 'Send an e-mail message' },
  { name: 'stock_price', description: 'Latest price of a stock' },
];

/** One process's turn: a store opened on `path`, a selector with it as cache, one selection. */
async function turnIn(path: string, config: EmbeddingsConfig, catalogTools: RetrievalTool[], query: string) {
  const store = openTestStore(path);
  try {
    const selector = configuredSelector(config, silentLogger, store);
    const view = new CatalogView(selector.catalog(catalogTools, 2));
    return await selector.select(view, query, {});
  } finally {
    await store.close();
  }
}

/** The texts the stand-in embedded since `from` requests ago. */
function embeddedSince(from: number): string[] {
  return (standIn?.embeddingRequests ?? []).slice(from).flatMap((r) => r.texts);
}

describe('tool vectors cached in the store', () => {
  it('a restart embeds only the request; a changed description alone; another model everything', async () => {
    standIn = await startStandIn({ family: 'openai' });
    const config: EmbeddingsConfig = { provider: 'openai-compatible', model: 'e', baseURL: standIn.baseURL };
    const path = tempDbPath();

    const first = await turnIn(path, config, tools, 'weather in Paris');
    expect(embeddedSince(0)).toEqual([
      'weather_now: Current weather for a city',
      'send_mail: Send an e-mail message',
      'stock_price: Latest price of a stock',
      'weather in Paris',
    ]);

    // The same tools in a new process on the same file: only the request goes out, and the
    // cached vectors rank exactly as the embedded ones did.
    let seen = standIn.embeddingRequests.length;
    const again = await turnIn(path, config, tools, 'weather in Paris');
    expect(embeddedSince(seen)).toEqual(['weather in Paris']);
    expect(again.ranking).toBe('words + embeddings (openai-compatible:e)');
    expect(again.tools.map((t) => t.name)).toEqual(first.tools.map((t) => t.name));
    expect([...again.relevance]).toEqual([...first.relevance]);

    // One description changed: that tool is embedded again, no other.
    seen = standIn.embeddingRequests.length;
    const changed = tools.map((t) =>
      t.name === 'send_mail' ? { ...t, description: 'Send an e-mail with attachments' } : t,
    );
    await turnIn(path, config, changed, 'send a mail');
    expect(embeddedSince(seen)).toEqual(['send_mail: Send an e-mail with attachments', 'send a mail']);

    // Another model reads none of the vectors the first one made.
    seen = standIn.embeddingRequests.length;
    await turnIn(path, { ...config, model: 'e2' }, tools, 'stock price');
    expect(embeddedSince(seen)).toEqual([
      'weather_now: Current weather for a city',
      'send_mail: Send an e-mail message',
      'stock_price: Latest price of a stock',
      'stock price',
    ]);
    expect(standIn.embeddingRequests.at(-1)?.model).toBe('e2');
  });
});
