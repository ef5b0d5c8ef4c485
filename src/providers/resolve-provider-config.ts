import { InputError } from '../core/errors.js';
import { ANTHROPIC_ENDPOINT } from './anthropic/anthropic-endpoint.js';
import { BEDROCK_ENDPOINT } from './bedrock/bedrock-endpoint.js';
import { OPENAI_ENDPOINTS } from './openai/openai-endpoints.js';
import {
  firstSet,
  firstSetNamed,
  PROVIDER_NAMES,
  type ProviderConfig,
  type ProviderDefaults,
  type ProviderName,
  type ResolvedProviderConfig,
  type WireFamily,
} from './shared/provider-config.js';

/** Each provider's defaults, from its vendor's folder. */
const DEFAULTS: Readonly<Record<ProviderName, ProviderDefaults>> = {
  ...OPENAI_ENDPOINTS,
  anthropic: ANTHROPIC_ENDPOINT,
  bedrock: BEDROCK_ENDPOINT,
};

/** The wire family a provider speaks. */
export function familyOf(provider: ProviderName): WireFamily {
  return DEFAULTS[provider].family;
}

/** Hosts a local server listens on, reached over plain http. */
const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\])(:|\/|$)/i;

/** True when `address` (a URL without its scheme) starts with a local host, which takes plain http. */
export function isLocalAddress(address: string): boolean {
  return LOCAL_HOST.test(address);
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
  if (defaults.baseURLRequired && !rawURL) {
    throw new InputError(
      `An ${config.provider} provider needs a base URL (e.g. http://localhost:8080/v1): pass baseURL or set ${defaults.baseURLVars.join(' or ')}.`,
    );
  }
  const { region, credentials } = defaults.access?.(config, env, isLoopback(rawURL)) ?? {
    region: config.region,
    credentials: config.credentials,
  };
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
    streamUsage: config.streamUsage ?? defaults.streamUsage ?? true,
  };
}
