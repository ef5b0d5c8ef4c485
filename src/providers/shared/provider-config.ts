import { InputError } from '../../core/errors.js';

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

interface ProviderDefaults {
  readonly family: WireFamily;
  readonly keyVars: readonly string[];
  readonly baseURLVars: readonly string[];
  readonly baseURL?: string;
  /** A key is required (local OpenAI-compatible servers usually need none). */
  readonly keyRequired: boolean;
}

const DEFAULTS: Readonly<Record<ProviderName, ProviderDefaults>> = {
  openai: {
    family: 'openai',
    keyVars: ['OPENAI_API_KEY'],
    baseURLVars: ['OPENAI_BASE_URL'],
    baseURL: 'https://api.openai.com/v1',
    keyRequired: true,
  },
  openrouter: {
    family: 'openai',
    keyVars: ['OPENROUTER_API_KEY'],
    baseURLVars: ['OPENROUTER_BASE_URL'],
    baseURL: 'https://openrouter.ai/api/v1',
    keyRequired: true,
  },
  gemini: {
    family: 'openai',
    keyVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    baseURLVars: ['GEMINI_BASE_URL'],
    baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    keyRequired: true,
  },
  mistral: {
    family: 'openai',
    keyVars: ['MISTRAL_API_KEY'],
    baseURLVars: ['MISTRAL_BASE_URL'],
    baseURL: 'https://api.mistral.ai/v1',
    keyRequired: true,
  },
  'openai-compatible': {
    family: 'openai',
    keyVars: ['OPENAI_API_KEY'],
    baseURLVars: ['OPENAI_BASE_URL'],
    keyRequired: false,
  },
  anthropic: {
    family: 'anthropic',
    keyVars: ['ANTHROPIC_API_KEY'],
    baseURLVars: ['ANTHROPIC_BASE_URL'],
    baseURL: 'https://api.anthropic.com',
    keyRequired: true,
  },
  bedrock: { family: 'bedrock', keyVars: [], baseURLVars: ['BEDROCK_ENDPOINT_URL'], keyRequired: false },
};

/** The wire family a provider speaks. */
export function familyOf(provider: ProviderName): WireFamily {
  return DEFAULTS[provider].family;
}

/** The first of the variables `names` that is set (not blank), with its name. */
function firstSetNamed(env: Readonly<Record<string, string | undefined>>, names: readonly string[]) {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

function firstSet(env: Readonly<Record<string, string | undefined>>, names: readonly string[]) {
  return firstSetNamed(env, names)?.value;
}

/** Hosts a local server listens on, reached over plain http. */
const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\])(:|\/|$)/i;

/** True when `address` (a URL without its scheme) starts with a local host, which takes plain http. */
export function isLocalAddress(address: string): boolean {
  return LOCAL_HOST.test(address);
}

/** The credentials a Bedrock endpoint on this machine is signed with when the person set none. */
export const LOCAL_AWS_CREDENTIALS: AwsCredentials = {
  accessKeyId: 'toolseam-local-no-credentials',
  secretAccessKey: 'toolseam-local-no-credentials',
};

/** True when the environment names AWS credentials someone chose: a key pair, or a profile. */
function awsCredentialsSet(env: Readonly<Record<string, string | undefined>>): boolean {
  const pair = firstSet(env, ['AWS_ACCESS_KEY_ID']) && firstSet(env, ['AWS_SECRET_ACCESS_KEY']);
  return Boolean(pair || firstSet(env, ['AWS_PROFILE']));
}

/** True for an http(s) URL whose host is this machine (localhost, 127.x.x.x, [::1]). */
function isLoopback(url: string | undefined): boolean {
  if (url === undefined || !URL.canParse(url)) return false;
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * `url` when it is an http(s) URL; otherwise an `InputError` naming where it came from (`variable`, or
 * the `baseURL` setting) and the URL to write, e.g. the same with `https://` before it.
 */
function checkUrl(url: string, provider: string, variable: string | undefined): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return url;
  } catch {
    // told below
  }
  const from = variable ? `from the environment variable ${variable}` : 'baseURL';
  const unset = variable ? `, or unset ${variable} to use the provider's own` : '';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new InputError(
      `The ${provider} base URL "${url}" (${from}) is not an http(s) URL; give one like https://host/v1${unset}.`,
    );
  }
  const suggested = `${isLocalAddress(url) ? 'http' : 'https'}://${url.replace(/^\/+/, '')}`;
  throw new InputError(
    `The ${provider} base URL "${url}" (${from}) does not start with http:// or https://; set it to one such as "${suggested}"${unset}.`,
  );
}

function nonNegative(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new InputError(`${what} must be a number of 0 or more; got ${String(value)}.`);
  }
  return value;
}

/** The longest wait a Node timer keeps (2^31-1 ms); past it the timer fires at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
const DEFAULT_TIMEOUT_MS = 600_000;

function timeoutOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  // 0 would mean "never" to the AWS SDK but "at once" to openai and @anthropic-ai/sdk
  checkTimeout(value, 'timeoutMs', `wait the default ${DEFAULT_TIMEOUT_MS} ms (10 minutes)`);
  return value;
}

function checkTimeout(value: number, name: string, leftOut: string): void {
  if (!Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
    throw new InputError(
      `${name} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (about 24 days); got ${String(value)}. Leave it out to ${leftOut}.`,
    );
  }
}

function firstByteOf(value: number | undefined): number | undefined {
  if (value !== undefined) checkTimeout(value, 'firstByteTimeoutMs', 'wait as long as timeoutMs allows');
  return value;
}

/** Fills in every default of `config` from the environment; throws `InputError` naming what is missing. */
export function resolveProviderConfig(config: ProviderConfig): ResolvedProviderConfig {
  const defaults = DEFAULTS[config.provider];
  if (!defaults) {
    throw new InputError(
      `Unknown model provider "${String(config.provider)}"; use one of ${PROVIDER_NAMES.join(', ')}.`,
    );
  }
  if (typeof config.model !== 'string' || config.model.trim() === '') {
    throw new InputError(`Give a model id for the ${config.provider} provider (for example with --model).`);
  }
  const env = config.env ?? process.env;
  // an empty key (a config template's "apiKey": "") is no key: the environment's, or none at all
  const apiKey = config.apiKey?.trim() ? config.apiKey : firstSet(env, defaults.keyVars);
  const fromEnv = config.baseURL === undefined ? firstSetNamed(env, defaults.baseURLVars) : undefined;
  const rawURL = config.baseURL ?? fromEnv?.value ?? defaults.baseURL;
  // a server on this machine (the stand-in, a local proxy holding the real keys) may need no key
  if (defaults.keyRequired && !apiKey && !isLoopback(rawURL)) {
    throw new InputError(
      `No API key for ${config.provider}: set ${defaults.keyVars.join(' or ')} or pass apiKey in the model config.`,
    );
  }
  if (config.provider === 'openai-compatible' && !rawURL) {
    throw new InputError(
      'An openai-compatible provider needs a base URL (e.g. http://localhost:8080/v1): pass baseURL or set OPENAI_BASE_URL.',
    );
  }
  const bedrockHere = config.provider === 'bedrock' && isLoopback(rawURL);
  // a server on this machine (the stand-in, a local proxy) ignores the region: any one signs the request
  const region =
    config.region ??
    firstSet(env, ['AWS_REGION', 'AWS_DEFAULT_REGION']) ??
    (bedrockHere ? 'us-east-1' : undefined);
  if (config.provider === 'bedrock' && !region) {
    throw new InputError('Bedrock needs an AWS region: pass region or set AWS_REGION.');
  }
  // ...and needs no credentials: unless the person set some, it gets a placeholder, so the AWS chain never
  // goes looking (a profile file, SSO, an instance role) for a real one to sign a request to it with
  const credentials =
    config.credentials ?? (bedrockHere && !awsCredentialsSet(env) ? LOCAL_AWS_CREDENTIALS : undefined);
  const retry = config.retry ?? {};
  return {
    provider: config.provider,
    family: defaults.family,
    model: config.model.trim(),
    apiKey,
    baseURL: rawURL === undefined ? undefined : checkUrl(rawURL, config.provider, fromEnv?.name),
    timeoutMs: timeoutOf(config.timeoutMs),
    firstByteTimeoutMs: firstByteOf(config.firstByteTimeoutMs),
    retry: {
      maxRetries: Math.floor(nonNegative(retry.maxRetries, 2, 'retry.maxRetries')),
      baseDelayMs: nonNegative(retry.baseDelayMs, 500, 'retry.baseDelayMs'),
      maxDelayMs: nonNegative(retry.maxDelayMs, 8_000, 'retry.maxDelayMs'),
    },
    stream: config.stream ?? true,
    maxTokens: config.maxTokens,
    headers: config.headers ?? {},
    region,
    credentials,
    toolResultStatus: config.toolResultStatus,
    streamUsage: config.streamUsage ?? config.provider !== 'mistral',
  };
}
