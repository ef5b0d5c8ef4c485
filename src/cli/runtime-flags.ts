import type { ToolseamConfig } from '../config.js';
import { InputError } from '../core/errors.js';
import { createLogger, type Logger, type LogLevel } from '../core/logger.js';
import type { Signals } from '../core/signals.js';
import {
  isLocalAddress,
  PROVIDER_NAMES,
  type ProviderConfig,
  type ProviderName,
} from '../providers/index.js';
import type { Runtime } from '../runtime/runtime.js';
import type { HostedOptions } from '../runtime/runtime-options.js';
import type { AskUser } from '../tools/builtin/ask-user-tool.js';
import { configFromFlags, databasePathFrom } from './config-flags.js';

/** The flags every command that runs a model shares. */
export const RUNTIME_FLAGS = {
  provider: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  config: { type: 'string' },
  db: { type: 'string' },
  approve: { type: 'string' },
  verbose: { type: 'boolean' },
  'first-byte-timeout': { type: 'string' },
} as const;

/** Parsed values of `RUNTIME_FLAGS`. */
export interface RuntimeFlagValues {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly 'base-url'?: string | undefined;
  readonly config?: string | undefined;
  readonly db?: string | undefined;
  readonly approve?: string | undefined;
  readonly verbose?: boolean | undefined;
  readonly 'first-byte-timeout'?: string | undefined;
}

/** A sensible default model for each provider a key can select. */
const DEFAULT_MODELS: Partial<Record<ProviderName, string>> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
  openrouter: 'openai/gpt-4.1-mini',
  gemini: 'gemini-2.5-flash',
  mistral: 'mistral-medium-latest',
};

/** Which provider the environment's API keys point at, in this order. */
const KEY_ORDER: ReadonlyArray<readonly [string, ProviderName]> = [
  ['OPENAI_API_KEY', 'openai'],
  ['ANTHROPIC_API_KEY', 'anthropic'],
  ['OPENROUTER_API_KEY', 'openrouter'],
  ['GEMINI_API_KEY', 'gemini'],
  ['MISTRAL_API_KEY', 'mistral'],
];

/**
 * The model to talk to: flags win over the config file, which wins over what the environment's keys
 * suggest. The config's model settings (model id, key, base URL, headers, …) go with the provider it
 * names: --provider naming another sets them all aside, so one vendor's key never travels to another.
 */
export function providerConfigFrom(
  flags: RuntimeFlagValues,
  config: ToolseamConfig,
  env = process.env,
): ProviderConfig {
  const fromConfig = config.model ?? {};
  if (flags['base-url'] !== undefined && flags['base-url'].trim() === '') {
    // an unset variable in `--base-url "$URL"` would otherwise send the conversation to a default endpoint
    throw new InputError(
      "--base-url needs a URL such as http://127.0.0.1:8080/v1; leave --base-url out to use the provider's own.",
    );
  }
  if (flags['base-url'] !== undefined) checkBaseUrlFlag(flags['base-url']);
  let provider = (flags.provider ?? fromConfig.provider) as string | undefined;
  if (provider === undefined && flags['base-url']) provider = 'openai-compatible';
  if (provider === undefined) provider = KEY_ORDER.find(([key]) => env[key])?.[1];
  if (provider === undefined) {
    throw new InputError(
      'no model is configured: set OPENAI_API_KEY or ANTHROPIC_API_KEY (or OPENROUTER_API_KEY, GEMINI_API_KEY, ' +
        'MISTRAL_API_KEY, AWS_REGION with --provider bedrock), or pass --provider and --model, or --base-url for a ' +
        'local OpenAI-compatible server such as `toolseam dev-provider`.',
    );
  }
  if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
    throw new InputError(`unknown provider "${provider}"; use one of ${PROVIDER_NAMES.join(', ')}.`);
  }
  const name = provider as ProviderName;
  const fromFile = fromConfig.provider === undefined || fromConfig.provider === name ? fromConfig : {};
  const model = flags.model ?? fromFile.model ?? DEFAULT_MODELS[name];
  if (!model) throw new InputError(`give a model id for ${name} with --model (or "model" in toolseam.json).`);
  const { contextWindow: _window, ...rest } = fromFile;
  const baseURL = flags['base-url'] ?? fromFile.baseURL;
  // A local server behind --base-url usually wants no key; the SDK still needs a value to send.
  const apiKey =
    rest.apiKey ?? (name === 'openai-compatible' && !env.OPENAI_API_KEY ? 'not-needed' : undefined);
  return {
    ...rest,
    provider: name,
    model,
    ...(baseURL ? { baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
  } as ProviderConfig;
}

/** Refuses a --base-url that is not an http(s) URL, naming the flag and the URL to write instead. */
function checkBaseUrlFlag(url: string): void {
  if (/^https?:\/\/[^/]/i.test(url) && URL.canParse(url)) return;
  const bare = url.replace(/^[a-z][a-z0-9+.-]*:\/+/i, '').replace(/^\/+/, '');
  const like = bare ? `${isLocalAddress(bare) ? 'http' : 'https'}://${bare}` : 'http://127.0.0.1:8787/v1';
  throw new InputError(`--base-url "${url}" is not an http(s) URL; write it as --base-url ${like}`);
}

/** The help lines of --verbose and --first-byte-timeout, for each command that takes the runtime flags. */
export const VERBOSE_HELP = `  --verbose     also print toolseam's info log lines on stderr (each tool models are offered
                adjusted or not at all, where one line counts them otherwise; a request leaving
                tools out to stay under the model's tool limit; an MCP server listing its tools
                again or starting a new session after it restarted), and the stack of a failure
  --first-byte-timeout SECONDS
                give up an attempt whose answer has not started within SECONDS and try again, as
                after a lost connection (default: as long as the model's "timeoutMs" allows)`;

/** The first-byte deadline --first-byte-timeout gives, in milliseconds; undefined when it is not given. */
export function firstByteFlag(flags: RuntimeFlagValues): number | undefined {
  const given = flags['first-byte-timeout'];
  if (given === undefined) return undefined;
  const seconds = Number(given.trim());
  if (given.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds * 1000 > 2 ** 31 - 1) {
    throw new InputError(
      `--first-byte-timeout takes a number of seconds above 0 (such as 30), not "${given}".`,
    );
  }
  return Math.max(1, Math.round(seconds * 1000));
}

/** Builds the runtime a command runs: config file, flags, store, tools. */
export async function runtimeFromFlags(
  flags: RuntimeFlagValues,
  extra: {
    askUser?: AskUser;
    unattended?: boolean;
    model?: (config: ToolseamConfig) => ProviderConfig;
    /** The config to use instead of the one the flags name (a resumed turn's own). */
    config?: ToolseamConfig;
    /** The database to open instead of the one the flags or config name (the one already read). */
    db?: string;
    /** Wake-ups that reach the host's other processes (`toolseam serve --signals`). */
    signals?: Signals;
    /** How often a waiting turn reads the store for an answer besides the signals (ms). */
    approvalPollMs?: number;
    /** The logger to use (one the command already made for what it built first). */
    logger?: Logger;
    /** Hosted mode (a job queue): `hosted-jobs.ts`. */
    hosted?: { readonly options: HostedOptions; readonly heartbeatMs: number };
  } = {},
): Promise<Runtime> {
  // A mistyped flag is named before anything is read or looked for (the config, a key).
  const policy = flags.approve;
  if (policy !== undefined && !['ask', 'auto', 'deny'].includes(policy)) {
    throw new InputError(`--approve takes ask, auto or deny, not "${policy}".`);
  }
  const firstByte = firstByteFlag(flags);
  const config = extra.config ?? configFromFlags(flags);
  const chosen = extra.model ? extra.model(config) : providerConfigFrom(flags, config);
  const model = firstByte === undefined ? chosen : { ...chosen, firstByteTimeoutMs: firstByte };
  const level: LogLevel = flags.verbose ? 'info' : 'warn';
  const db = extra.db ?? databasePathFrom(flags, config);
  const logger = extra.logger ?? createLogger({ level });
  // Bubblewrap's one start (whether `bash` is offered) runs while the runtime's modules load; the
  // runtime awaits the same probe.
  if (config.shell.sandbox !== 'off') {
    void import('../tools/builtin/sandbox-probe.js')
      .then((probe) => probe.shellSandboxSoon(config.shell.bwrap))
      .catch(() => undefined);
  }
  // The provider's SDK, which the first request needs, loads while the runtime is built (the probe
  // above leaves the process waiting for bubblewrap meanwhile).
  void import('../providers/index.js')
    .then((providers) => providers.preloadProvider(model))
    .catch(() => undefined);
  // Imported here, once the flags are read: a command's --help or a mistyped flag loads no runtime.
  const { createRuntime } = await import('../create-runtime.js');
  return createRuntime({
    model,
    config,
    ...(db ? { store: db } : {}),
    ...(extra.askUser ? { askUser: extra.askUser } : {}),
    ...(extra.signals ? { signals: extra.signals } : {}),
    ...(extra.hosted ? { hosted: extra.hosted.options, heartbeatMs: extra.hosted.heartbeatMs } : {}),
    logger,
    approvals: {
      ...config.approvals,
      ...(policy ? { policy: policy as 'ask' | 'auto' | 'deny' } : {}),
      ...(extra.unattended ? { unattended: true } : {}),
      ...(extra.approvalPollMs !== undefined ? { pollMs: extra.approvalPollMs } : {}),
    },
  });
}
