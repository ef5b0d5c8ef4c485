/** Every provider `createModelAdapter` knows, by the name a user writes in a config file. */
export const PROVIDER_NAMES = [
  'openai',
  'openrouter',
  'gemini',
  'mistral',
  'openai-compatible',
  'anthropic',
  'bedrock',
] as const;

/** A provider `createModelAdapter` knows. */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** Which wire a provider speaks. */
export type WireFamily = 'openai' | 'anthropic' | 'bedrock';

/** Static AWS credentials for Bedrock (otherwise the AWS SDK's default chain is used). */
export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** How transient failures (408, 409, 429, 5xx, connection) are retried; no other 4xx is, unless the server sends `x-should-retry: true` (never for a rejected tool definition). */
export interface RetrySettings {
  /** Retries after the first attempt (default 2). */
  readonly maxRetries?: number;
  /** First back-off delay; doubles each retry, with jitter (default 500 ms). */
  readonly baseDelayMs?: number;
  /** Ceiling for one delay, including a server's `retry-after` (default 8,000 ms). */
  readonly maxDelayMs?: number;
}

/** What a user configures to reach a model. Only `provider` and `model` are required. */
export interface ProviderConfig {
  readonly provider: ProviderName;
  /** The model id as the provider spells it (a Bedrock model or inference-profile id). */
  readonly model: string;
  /** API key; defaults to the provider's usual environment variable (an empty one counts as none given). */
  readonly apiKey?: string;
  /** Base URL (Bedrock: endpoint URL); defaults to the provider's public endpoint. */
  readonly baseURL?: string;
  /** Time allowed for the provider to start answering one attempt: 1 to 2^31-1 ms (default 600,000). */
  readonly timeoutMs?: number;
  /**
   * The first-byte deadline: an attempt whose answer has not started by then (no status, or no first event
   * of a streamed answer; a whole answer when not streamed) is given up and tried again, as a lost
   * connection is. 1 to 2^31-1 ms; left out, only `timeoutMs` applies.
   */
  readonly firstByteTimeoutMs?: number;
  readonly retry?: RetrySettings;
  /** Ask for a streamed answer (default true); false uses the non-streaming endpoint. */
  readonly stream?: boolean;
  /** Default `maxTokens` when a request sets none (Anthropic requires one; default 4,096 there). */
  readonly maxTokens?: number;
  /** Extra HTTP headers on every request (e.g. OpenRouter's `HTTP-Referer`, `X-Title`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Bedrock: AWS region (default `AWS_REGION`, then `AWS_DEFAULT_REGION`). */
  readonly region?: string;
  /** Bedrock: static credentials (default: the AWS SDK's own chain: env, profile, SSO, instance role). */
  readonly credentials?: AwsCredentials;
  /** Bedrock: send `toolResult.status` (default: only for Anthropic and Nova models, which accept it). */
  readonly toolResultStatus?: boolean;
  /** OpenAI-compatible: ask for usage in the stream via `stream_options` (default true, false for Mistral). */
  readonly streamUsage?: boolean;
  /** Environment to read defaults from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A config with every default filled in. */
export interface ResolvedProviderConfig {
  readonly provider: ProviderName;
  readonly family: WireFamily;
  readonly model: string;
  readonly apiKey: string | undefined;
  readonly baseURL: string | undefined;
  readonly timeoutMs: number;
  readonly firstByteTimeoutMs: number | undefined;
  readonly retry: Required<RetrySettings>;
  readonly stream: boolean;
  readonly maxTokens: number | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly region: string | undefined;
  readonly credentials: AwsCredentials | undefined;
  readonly toolResultStatus: boolean | undefined;
  readonly streamUsage: boolean;
}

/** Environment variables, as `process.env` holds them. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Where a provider's region and credentials come from (only Bedrock has any). */
export interface ProviderAccess {
  readonly region: string | undefined;
  readonly credentials: AwsCredentials | undefined;
}

/** What a vendor's folder says of each provider it serves: its wire, where its key and URL come from. */
export interface ProviderDefaults {
  readonly family: WireFamily;
  /** Variables that hold the API key, first set wins. */
  readonly keyVars: readonly string[];
  /** Variables that hold the base URL, first set wins. */
  readonly baseURLVars: readonly string[];
  /** The provider's public endpoint; none for a server the person names. */
  readonly baseURL?: string;
  /** A key is required (local OpenAI-compatible servers usually need none). */
  readonly keyRequired: boolean;
  /** There is no public endpoint: the person must name one. */
  readonly baseURLRequired?: boolean;
  /** Ask for usage in the stream unless the config says otherwise (default true). */
  readonly streamUsage?: boolean;
  /**
   * The region and credentials to sign with, from the config and the environment; `onThisMachine` when
   * the base URL is a loopback server. Throws `InputError` naming what to set. Left out: as configured.
   */
  readonly access?: (config: ProviderConfig, env: Environment, onThisMachine: boolean) => ProviderAccess;
}

/** The first of the variables `names` that is set (not blank), with its name. */
export function firstSetNamed(env: Environment, names: readonly string[]) {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

/** The value of the first of the variables `names` that is set (not blank). */
export function firstSet(env: Environment, names: readonly string[]): string | undefined {
  return firstSetNamed(env, names)?.value;
}
