import type { Logger } from './core/logger.js';
import type { VectorCache } from './core/vector-cache.js';
import type { EmbeddingsConfig } from './embeddings-config.js';
import { resolveProviderConfig } from './providers/index.js';
import { type EmbeddingSource, embeddingSelector, type ToolSelector } from './retrieval/index.js';

/**
 * Texts to vectors with the configured provider (key, URL and region resolved as for a model). The
 * vendor SDK is loaded at the first call, so a process that never embeds never loads it.
 */
export function embeddingSourceFor(config: EmbeddingsConfig): EmbeddingSource {
  const resolved = resolveProviderConfig({
    provider: config.provider,
    model: config.model,
    ...(config.key === undefined ? {} : { apiKey: config.key }),
    ...(config.baseURL === undefined ? {} : { baseURL: config.baseURL }),
    ...(config.region === undefined ? {} : { region: config.region }),
  });
  let client: Promise<EmbeddingSource> | undefined;
  const load = async (): Promise<EmbeddingSource> => {
    if (resolved.family === 'bedrock')
      return (await import('./providers/bedrock/bedrock-embeddings.js')).bedrockEmbeddings(resolved);
    const { openAIEmbeddings } = await import('./providers/openai/openai-embeddings.js');
    return openAIEmbeddings({
      baseURL: resolved.baseURL ?? '',
      apiKey: resolved.apiKey,
      model: resolved.model,
    });
  };
  return async (texts, signal) => {
    client ??= load();
    return (await client)(texts, signal);
  };
}

/**
 * The selector `"embeddings"` asks for: words fused with embeddings, words alone for a turn they fail.
 * With `cache` (the store), tools' vectors are kept there under `provider:model`, so a restart embeds
 * only tools it has not seen with the same text.
 */
export function configuredSelector(
  config: EmbeddingsConfig,
  logger: Logger,
  cache?: VectorCache,
): ToolSelector {
  const label = `${config.provider}:${config.model}`;
  return embeddingSelector(embeddingSourceFor(config), {
    label,
    ...(cache ? { vectorCache: { cache, model: label } } : {}),
    ...(config.timeoutMs === undefined ? {} : { embedTimeoutMs: config.timeoutMs }),
    onFallback: (error) =>
      logger.log({
        level: 'warn',
        scope: 'retrieval',
        message: `embeddings (${label}) failed; this turn's tools were ranked by words alone: ${error instanceof Error ? error.message : String(error)}`,
        fields: { provider: config.provider, model: config.model },
      }),
  });
}
