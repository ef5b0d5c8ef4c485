import { createHash } from 'node:crypto';

/** Dimensions of the stand-ins' embeddings. */
export const STAND_IN_DIMENSIONS = 64;

/** One embedding request a stand-in answered: where, and the texts it embedded. */
export interface EmbeddingRequest {
  readonly path: string;
  readonly model: string;
  readonly texts: readonly string[];
}

/**
 * A deterministic vector for a text: each word adds to a dimension chosen by its hash, so texts
 * sharing words point alike. It tests the mechanics (batching, caching, fusion), not quality.
 */
export function standInVector(text: string): number[] {
  const v = new Array<number>(STAND_IN_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const h = createHash('sha256').update(word).digest();
    const dim = (h[0] as number) % STAND_IN_DIMENSIONS;
    v[dim] = (v[dim] as number) + ((h[1] as number) & 1 ? 1 : -1);
  }
  return v;
}

/** What a stand-in sends back for an embedding request, or undefined when the request is not one. */
export function embeddingAnswer(
  method: string,
  path: string,
  rawBody: string,
):
  | { answer: { status: number; headers: Record<string, string>; body: string }; request: EmbeddingRequest }
  | undefined {
  if (method !== 'POST') return undefined;
  const json = (status: number, body: unknown) => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(rawBody) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (path.endsWith('/embeddings')) {
    const input = body.input;
    const texts = typeof input === 'string' ? [input] : Array.isArray(input) ? input.map(String) : [];
    const model = String(body.model ?? '');
    return {
      request: { path, model, texts },
      answer: json(200, {
        object: 'list',
        model,
        data: texts.map((t, index) => ({ object: 'embedding', index, embedding: standInVector(t) })),
        usage: { prompt_tokens: 0, total_tokens: 0 },
      }),
    };
  }
  const invoke = /^\/model\/([^/]+)\/invoke$/.exec(path);
  if (invoke) {
    const model = decodeURIComponent(invoke[1] as string);
    // Titan takes one `inputText`; Cohere a list of `texts`.
    if (typeof body.inputText === 'string')
      return {
        request: { path, model, texts: [body.inputText] },
        answer: json(200, { embedding: standInVector(body.inputText), inputTextTokenCount: 0 }),
      };
    if (Array.isArray(body.texts)) {
      const texts = body.texts.map(String);
      return {
        request: { path, model, texts },
        answer: json(200, { id: 'stand-in', embeddings: texts.map(standInVector), texts }),
      };
    }
  }
  return undefined;
}
