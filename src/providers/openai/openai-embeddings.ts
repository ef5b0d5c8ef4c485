import OpenAI from 'openai';

/** Where an OpenAI-compatible `/v1/embeddings` endpoint is, and with which model and key. */
export interface OpenAIEmbeddingsConfig {
  readonly baseURL: string;
  readonly apiKey: string | undefined;
  readonly model: string;
}

/**
 * Texts to vectors through an OpenAI-compatible `POST /embeddings` (OpenAI, Gemini's OpenAI-compatible
 * endpoint, a local server). One request per call; the answer is put back in the texts' order.
 */
export function openAIEmbeddings(
  config: OpenAIEmbeddingsConfig,
): (texts: readonly string[], signal?: AbortSignal) => Promise<number[][]> {
  // Retries are the caller's: a turn waits on this under a deadline, and falls back to words instead.
  const client = new OpenAI({ baseURL: config.baseURL, apiKey: config.apiKey ?? 'none', maxRetries: 0 });
  return async (texts, signal) => {
    if (texts.length === 0) return [];
    const answer = await client.embeddings.create(
      { model: config.model, input: [...texts], encoding_format: 'float' },
      signal ? { signal } : {},
    );
    const out: number[][] = new Array(texts.length);
    for (const item of answer.data) out[item.index] = item.embedding;
    if (out.some((v) => v === undefined))
      throw new Error(
        `the embeddings endpoint answered ${answer.data.length} vectors for ${texts.length} texts`,
      );
    return out;
  };
}
