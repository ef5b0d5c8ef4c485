import { InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import type { ResolvedProviderConfig } from '../shared/provider-config.js';
import { bedrockClient } from './bedrock-client.js';

/** Texts Cohere's embed models take in one request. */
const COHERE_BATCH = 96;

/**
 * Texts to vectors through Bedrock's InvokeModel: Titan text embeddings (one text a request, sent
 * side by side) or Cohere embed (up to 96 texts a request). Other model ids are refused by name.
 */
export function bedrockEmbeddings(
  config: ResolvedProviderConfig,
): (texts: readonly string[], signal?: AbortSignal) => Promise<number[][]> {
  const client = bedrockClient(config);
  const model = config.model;
  const invoke = async (body: unknown, signal: AbortSignal | undefined): Promise<Record<string, unknown>> => {
    const out = await client.send(
      new InvokeModelCommand({
        modelId: model,
        contentType: 'application/json',
        accept: 'application/json',
        body: JSON.stringify(body),
      }),
      signal ? { abortSignal: signal } : {},
    );
    return JSON.parse(new TextDecoder().decode(out.body)) as Record<string, unknown>;
  };
  if (model.includes('titan-embed'))
    return (texts, signal) =>
      Promise.all(
        texts.map(async (inputText) => vectorOf((await invoke({ inputText }, signal)).embedding, model)),
      );
  if (model.includes('cohere.embed'))
    return async (texts, signal) => {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += COHERE_BATCH) {
        const batch = texts.slice(i, i + COHERE_BATCH);
        const answer = await invoke({ texts: batch, input_type: 'search_document', truncate: 'END' }, signal);
        const embeddings = answer.embeddings;
        // `embeddings` is a list, or {float: list} when embedding types were asked for.
        const list = Array.isArray(embeddings) ? embeddings : (embeddings as { float?: unknown })?.float;
        if (!Array.isArray(list) || list.length !== batch.length)
          throw new Error(`Bedrock model ${model} answered no vector list for ${batch.length} texts`);
        for (const v of list) out.push(vectorOf(v, model));
      }
      return out;
    };
  throw new Error(
    `Bedrock embeddings take a Titan (amazon.titan-embed-…) or Cohere (cohere.embed-…) model, not "${model}".`,
  );
}

function vectorOf(v: unknown, model: string): number[] {
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'number'))
    throw new Error(`Bedrock model ${model} answered something other than a vector`);
  return v as number[];
}
