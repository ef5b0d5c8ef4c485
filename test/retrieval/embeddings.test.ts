import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import type { Logger, LogRecord } from '../../src/core/logger.js';
import { configuredSelector, embeddingSourceFor } from '../../src/embedding-source.js';
import { readEmbeddingsConfig } from '../../src/embeddings-config.js';
import { CatalogView } from '../../src/retrieval/catalog-view.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { ToolCatalog } from '../../src/retrieval/tool-catalog.js';
import { STAND_IN_DIMENSIONS, type StandIn, standInVector, startStandIn } from '../../src/testing/index.js';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

function logged(): Logger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return { records, log: (r) => records.push(r), once: (_k, r) => records.push(r) };
}

const tools: RetrievalTool[] = [
  { name: 'weather_now', description: 'Current weather for a city' },
  { name: 'send_mail', description: 'Send an e-mail message' },
  { name: 'stock_price', description: 'Latest price of a stock' },
];

describe('"embeddings" in the config', () => {
  it('is off unless set, and read with provider, model and key', () => {
    expect(parseConfig({}, { baseDir: '/' }).embeddings).toBeUndefined();
    const config = parseConfig(
      { embeddings: { provider: 'openai', model: 'text-embedding-3-small', key: 'k' } },
      { baseDir: '/' },
    );
    expect(config.embeddings).toEqual({ provider: 'openai', model: 'text-embedding-3-small', key: 'k' });
  });

  it('refuses Anthropic in a sentence: it has no embeddings endpoint', () => {
    expect(() => readEmbeddingsConfig({ provider: 'anthropic', model: 'x' }, 'the config')).toThrow(
      /"anthropic", which has no embeddings endpoint/,
    );
  });

  it('names what is wrong: a missing model, an unknown key, a Bedrock model that does not embed', () => {
    expect(() => readEmbeddingsConfig({ provider: 'openai' }, 'c')).toThrow(/needs "model"/);
    expect(() => readEmbeddingsConfig({ provider: 'openai', model: 'm', apiKey: 'k' }, 'c')).toThrow(
      /unknown key "apiKey"/,
    );
    expect(() => readEmbeddingsConfig({ provider: 'bedrock', model: 'anthropic.claude-3' }, 'c')).toThrow(
      /Titan .* or Cohere/,
    );
    expect(() => readEmbeddingsConfig('openai', 'c')).toThrow(/must be an object/);
  });
});

describe('embedding clients against the stand-ins', () => {
  it('OpenAI-compatible /v1/embeddings: one request per batch, vectors in the texts’ order', async () => {
    standIn = await startStandIn({ family: 'openai' });
    const embed = embeddingSourceFor({ provider: 'openai-compatible', model: 'e', baseURL: standIn.baseURL });
    const out = await embed(['alpha beta', 'gamma']);
    expect(out).toEqual([standInVector('alpha beta'), standInVector('gamma')]);
    expect(standIn.embeddingRequests).toEqual([
      { path: '/v1/embeddings', model: 'e', texts: ['alpha beta', 'gamma'] },
    ]);
  });

  it('Gemini through its OpenAI-compatible endpoint', async () => {
    standIn = await startStandIn({ family: 'openai', mode: 'gemini' });
    const embed = embeddingSourceFor({
      provider: 'gemini',
      model: 'gemini-embedding-001',
      key: 'k',
      baseURL: standIn.baseURL,
    });
    const [v] = await embed(['hello']);
    expect(v).toHaveLength(STAND_IN_DIMENSIONS);
    expect(standIn.embeddingRequests[0]?.path).toBe('/v1beta/openai/embeddings');
  });

  it('Bedrock Titan (a text a request) and Cohere (a list a request)', async () => {
    standIn = await startStandIn({ family: 'bedrock' });
    const base = { provider: 'bedrock' as const, baseURL: standIn.url, region: 'us-east-1' };
    const titan = embeddingSourceFor({ ...base, model: 'amazon.titan-embed-text-v2:0' });
    expect(await titan(['one', 'two'])).toEqual([standInVector('one'), standInVector('two')]);
    const cohere = embeddingSourceFor({ ...base, model: 'cohere.embed-english-v3' });
    expect(await cohere(['three', 'four'])).toEqual([standInVector('three'), standInVector('four')]);
    expect(standIn.embeddingRequests.map((r) => r.texts)).toEqual(
      expect.arrayContaining([['one'], ['two'], ['three', 'four']]),
    );
  });
});

describe('the configured selector', () => {
  it('fuses embeddings, embeds each tool once, and says so as its ranking', async () => {
    standIn = await startStandIn({ family: 'openai' });
    const log = logged();
    const selector = configuredSelector(
      { provider: 'openai-compatible', model: 'e', baseURL: standIn.baseURL },
      log,
    );
    const catalog = selector.catalog(tools, 2);
    const view = new CatalogView(catalog);
    const first = await selector.select(view, 'weather in Paris', {});
    expect(first.ranking).toBe('words + embeddings (openai-compatible:e)');
    expect(selector.lastRanking?.()).toBe(first.ranking);
    await selector.select(view, 'send a mail', {});
    const texts = standIn.embeddingRequests.flatMap((r) => r.texts);
    // The tools once, as `{name}: {description}`, then each request.
    expect(texts).toEqual([
      'weather_now: Current weather for a city',
      'send_mail: Send an e-mail message',
      'stock_price: Latest price of a stock',
      'weather in Paris',
      'send a mail',
    ]);
    expect(log.records).toEqual([]);
  });

  it('ranks by words for a turn the endpoint fails, with one log line', async () => {
    const log = logged();
    // Nothing listens on port 9 of this machine: every request fails at once.
    const selector = configuredSelector(
      { provider: 'openai-compatible', model: 'e', baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 2000 },
      log,
    );
    const view = new CatalogView(selector.catalog(tools, 2));
    const chosen = await selector.select(view, 'weather in Paris', {});
    expect(chosen.ranking).toBe('words (embeddings failed this turn)');
    expect(chosen.tools.map((t) => t.name)).toContain('weather_now');
    expect(log.records).toHaveLength(1);
    expect(log.records[0]).toMatchObject({ level: 'warn', scope: 'retrieval' });
    expect(log.records[0]?.message).toMatch(/ranked by words alone/);
  });
});

describe('ToolCatalog without embeddings', () => {
  it('is the lexical ranking', () => {
    expect(
      new CatalogView(new ToolCatalog(tools, {})).select('stock price', {}).map((t) => t.name),
    ).toContain('stock_price');
  });
});
