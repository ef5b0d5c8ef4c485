import { InputError } from './core/errors.js';
import { PROVIDER_NAMES, type ProviderName } from './providers/index.js';

/** `"embeddings"` in the config: which endpoint turns tool descriptions and requests into vectors. */
export interface EmbeddingsConfig {
  readonly provider: Exclude<ProviderName, 'anthropic'>;
  readonly model: string;
  /** The API key; the provider's usual environment variable when left out. */
  readonly key?: string;
  readonly baseURL?: string;
  /** Bedrock's AWS region. */
  readonly region?: string;
  /** How long one embedding request is waited for before the turn ranks by words (10 s by default). */
  readonly timeoutMs?: number;
}

const KEYS = ['provider', 'model', 'key', 'baseURL', 'region', 'timeoutMs'];

/** Reads `"embeddings"`; undefined when absent (embeddings are off unless configured). */
export function readEmbeddingsConfig(value: unknown, where: string): EmbeddingsConfig | undefined {
  if (value === undefined) return undefined;
  const fail = (what: string): never => {
    throw new InputError(`"embeddings" in ${where} ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return fail('must be an object such as {"provider": "openai", "model": "text-embedding-3-small"}.');
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v))
    if (!KEYS.includes(key)) fail(`has unknown key "${key}"; the keys are ${KEYS.join(', ')}.`);
  if (v.provider === 'anthropic')
    fail(
      'names "anthropic", which has no embeddings endpoint; use openai, gemini, bedrock or openai-compatible (any /v1/embeddings server).',
    );
  const providers = PROVIDER_NAMES.filter((p) => p !== 'anthropic');
  if (!(providers as readonly unknown[]).includes(v.provider))
    fail(`needs "provider": one of ${providers.join(', ')}, not ${JSON.stringify(v.provider)}.`);
  if (typeof v.model !== 'string' || v.model.trim() === '')
    fail('needs "model": the embedding model id as the provider spells it, e.g. "text-embedding-3-small".');
  if (
    v.provider === 'bedrock' &&
    !(String(v.model).includes('titan-embed') || String(v.model).includes('cohere.embed'))
  )
    fail(
      `names Bedrock model "${String(v.model)}"; Bedrock embeddings take a Titan (amazon.titan-embed-…) or Cohere (cohere.embed-…) model.`,
    );
  for (const key of ['key', 'baseURL', 'region'])
    if (v[key] !== undefined && typeof v[key] !== 'string') fail(`has "${key}" that is not a string.`);
  if (v.timeoutMs !== undefined && !(Number.isInteger(v.timeoutMs) && (v.timeoutMs as number) >= 1))
    fail('has "timeoutMs" that is not a whole number of milliseconds of at least 1.');
  return v as unknown as EmbeddingsConfig;
}
