import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { InputError } from './core/errors.js';
import { isPlainObject } from './core/json.js';
import { readJsonFile } from './core/read-json-file.js';
import { type EmbeddingsConfig, readEmbeddingsConfig } from './embeddings-config.js';
import { PROVIDER_NAMES, type ProviderConfig } from './providers/index.js';
import { type QueueSettings, readQueueConfig } from './queue-config.js';
import { type AutomationConfig, automationSettings } from './runtime/automations/automation-settings.js';
import { AutomationSpecError } from './runtime/automations/automation-spec-error.js';
import type { PreToolHook } from './runtime/calls/gates/pre-tool-hooks.js';
import { globMatch } from './runtime/glob-match.js';
import type { AgentConfig, ApprovalOptions, DenyRule, TurnLimits } from './runtime/runtime-options.js';
import { isPostgresUrl } from './store/postgres-url.js';
import { nearMiss } from './tools/arguments/near-miss.js';
import { credentialPlace } from './tools/builtin/credential-paths.js';
import { CREDENTIAL_WORDS, type ShellOptions, VARIABLE_NAME } from './tools/builtin/shell-options.js';
import { type NotifyConfig, readNotifyConfig } from './tools/notify/notify-config.js';
import { parseToolsConfig, type ToolsConfig } from './tools/registry-config.js';

/** Everything `toolseam.json` says, checked. */
export interface ToolseamConfig {
  /** The file it came from (absent for defaults). */
  readonly file?: string;
  /** SHA-256 (hex) of that file's text as read, so a turn can tell later whether it changed. */
  readonly sha256?: string;
  /** The model to talk to; absent means "choose from the command line or the environment". */
  readonly model?: Partial<ProviderConfig> & { readonly contextWindow?: number };
  readonly system?: string;
  readonly approvals: ApprovalOptions;
  readonly workspace: readonly string[];
  readonly denyList: readonly DenyRule[];
  readonly hooks: readonly PreToolHook[];
  readonly agents: Readonly<Record<string, AgentConfig>>;
  /** Secret name → value, read from the environment variables the config names. */
  readonly secrets: ReadonlyMap<string, string>;
  readonly limits: TurnLimits;
  /** Automations' time zone, per-run budget and lateness (checked; defaults applied where they are used). */
  readonly automations?: AutomationConfig;
  /**
   * How long calls of tools that declare no time limit of their own may run, by tool name pattern, in the
   * order written (the first pattern that matches a tool decides; 60 s for a tool none matches).
   */
  readonly toolTimeouts: readonly ToolTimeout[];
  /** The SQLite file, or a `postgres://` URL for a PostgreSQL store; absent means a SQLite file in the user's data folder. */
  readonly db?: string;
  readonly tools: ToolsConfig;
  /** How `bash` runs its commands (sandbox, network, environment, extra reads). */
  readonly shell: ShellOptions;
  /** The owner channel's gateways (`notify` and `notify_attachment` are offered only with it). */
  readonly notify?: NotifyConfig;
  /** What `toolseam mcp-serve` serves: globs over real tool names (absent: its default set). */
  readonly serve?: { readonly tools?: readonly string[] };
  /** Embeddings fused into tool ranking; off unless set. */
  readonly embeddings?: EmbeddingsConfig;
  /**
   * Hosted mode's job queue (`queue-config.ts`); `false`: none even on PostgreSQL; absent: one on a
   * PostgreSQL `db`, else none (turns run in the process that starts them).
   */
  readonly queue?: QueueSettings | false;
}

/** One entry of `toolTimeouts`: tools matching `tool` (a glob over real names) may run `ms` milliseconds. */
export interface ToolTimeout {
  readonly tool: string;
  readonly ms: number;
}

const KNOWN_KEYS = [
  'model',
  'embeddings',
  'system',
  'approvals',
  'automations',
  'workspace',
  'denyList',
  'hooks',
  'agents',
  'secrets',
  'limits',
  'db',
  'mcpServers',
  'apps',
  'disabledTools',
  'mcpTimeouts',
  'toolTimeouts',
  'shell',
  'notify',
  'serve',
  'queue',
];

/** Reads and checks a config file; with `optional`, a missing file gives the defaults. */
export function readConfig(
  file: string,
  options: { optional?: boolean; env?: NodeJS.ProcessEnv } = {},
): ToolseamConfig {
  const read = readJsonFile(file, 'config file', options);
  if (!read) return parseConfig({}, { baseDir: process.cwd(), env: options.env });
  return {
    ...parseConfig(read.data, { source: read.path, baseDir: dirname(read.path), env: options.env }),
    file: read.path,
    sha256: createHash('sha256').update(read.text).digest('hex'),
  };
}

/** Checks an already-parsed config; every problem names the key and what to write instead. */
export function parseConfig(
  data: unknown,
  options: { source?: string; baseDir: string; env?: NodeJS.ProcessEnv | undefined },
): ToolseamConfig {
  const where = options.source ?? 'the config';
  if (!isPlainObject(data)) throw new InputError(`${where} must hold a JSON object.`);
  const unknown = Object.keys(data).filter((k) => !KNOWN_KEYS.includes(k));
  if (unknown.length > 0) {
    const hint = unknown.length === 1 ? didYouMean(unknown[0] as string, KNOWN_KEYS) : '';
    throw new InputError(
      `${where} has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')};${hint} the keys are ${KNOWN_KEYS.join(', ')}.`,
    );
  }
  const fail = (key: string, what: string): never => {
    throw new InputError(`"${key}" in ${where} ${what}`);
  };
  const model = readModel(data.model, fail);
  if (data.system !== undefined && typeof data.system !== 'string') fail('system', 'must be a string.');
  if (data.db !== undefined && typeof data.db !== 'string')
    fail('db', 'must be a file path (SQLite) or a postgres:// URL (PostgreSQL).');
  const notify = readNotifyConfig(data.notify, fail);
  const embeddings = readEmbeddingsConfig(data.embeddings, where);
  const queue = readQueueConfig(data.queue);
  return {
    ...(model ? { model } : {}),
    ...(typeof data.system === 'string' ? { system: data.system } : {}),
    approvals: readApprovals(data.approvals, fail),
    workspace: readStrings(data.workspace, 'workspace', fail).map((p) =>
      isAbsolute(p) ? p : resolve(options.baseDir, p),
    ),
    denyList: readDenyList(data.denyList, fail),
    hooks: readHooks(data.hooks, options.baseDir, fail),
    agents: readAgents(data.agents, fail),
    secrets: readSecrets(data.secrets, options.env ?? process.env, fail),
    limits: readLimits(data.limits, fail),
    ...readAutomations(data.automations, fail),
    toolTimeouts: readToolTimeouts(data.toolTimeouts, fail),
    ...(typeof data.db === 'string'
      ? { db: isAbsolute(data.db) || isPostgresUrl(data.db) ? data.db : resolve(options.baseDir, data.db) }
      : {}),
    tools: parseToolsConfig(data, {
      ...(options.source ? { source: options.source } : {}),
      baseDir: options.baseDir,
    }),
    shell: readShell(data.shell, options.baseDir, fail),
    ...(notify ? { notify } : {}),
    ...(embeddings ? { embeddings } : {}),
    ...(queue !== undefined ? { queue } : {}),
    ...readServe(data.serve, fail),
  };
}

/** `"serve": {"tools": [globs]}`: which tools `toolseam mcp-serve` serves. */
function readServe(value: unknown, fail: Fail): Pick<ToolseamConfig, 'serve'> {
  if (value === undefined) return {};
  if (!isPlainObject(value))
    return fail('serve', 'must be an object such as {"tools": ["read_file", "notes_*"]}.');
  checkKeys(value, ['tools'], 'serve', 'serve setting', fail);
  return value.tools === undefined
    ? { serve: {} }
    : { serve: { tools: readStrings(value.tools, 'serve.tools', fail) } };
}

type Fail = (key: string, what: string) => never;

/** `"automations": {"timeZone", "budget", "lateAfterMinutes"}`, checked as the scheduler reads it. */
function readAutomations(value: unknown, fail: Fail): Pick<ToolseamConfig, 'automations'> {
  if (value === undefined) return {};
  try {
    automationSettings(value);
  } catch (error) {
    if (error instanceof AutomationSpecError) fail(error.field, error.message.slice(error.field.length + 2));
    throw error;
  }
  return { automations: value as AutomationConfig };
}

/** ` did you mean "x"?` when `key` looks like a misspelling of one of `names`, else ''. */
function didYouMean(key: string, names: readonly string[]): string {
  const meant = nearMiss(key, names);
  return meant === undefined ? '' : ` did you mean "${meant}"?`;
}

type ModelConfig = NonNullable<ToolseamConfig['model']>;

const isString = (v: unknown) => typeof v === 'string';
const isText = (v: unknown) => typeof v === 'string' && v.trim() !== '';
const isFlag = (v: unknown) => typeof v === 'boolean';
const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isDelay = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** The longest delay a Node timer keeps: past it, the timer fires after 1 ms instead. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
const isTimeout = (v: unknown) =>
  typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_TIMEOUT_MS;
const isHttpUrl = (v: unknown) => {
  if (!isText(v)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(v as string).protocol);
  } catch {
    return false;
  }
};
const isStringMap = (v: unknown) => isPlainObject(v) && Object.values(v).every(isString);
const isRetry = (v: unknown) =>
  isPlainObject(v) &&
  Object.entries(v).every(([k, n]) => ['maxRetries', 'baseDelayMs', 'maxDelayMs'].includes(k) && isDelay(n));
const isCredentials = (v: unknown) =>
  isStringMap(v) &&
  Object.keys(v as object).every((k) => ['accessKeyId', 'secretAccessKey', 'sessionToken'].includes(k)) &&
  isString((v as Record<string, unknown>).accessKeyId) &&
  isString((v as Record<string, unknown>).secretAccessKey);

/** Each setting of "model": how to check its value, and what to write when it fails. */
const MODEL_SETTINGS: Readonly<Record<string, readonly [(v: unknown) => boolean, string]>> = {
  provider: [
    (v) => (PROVIDER_NAMES as readonly unknown[]).includes(v),
    `one of ${PROVIDER_NAMES.join(', ')}`,
  ],
  model: [isText, 'the model id as the provider spells it'],
  apiKey: [isString, 'a string'],
  baseURL: [isHttpUrl, 'an http(s) URL such as "http://127.0.0.1:8080/v1"'],
  timeoutMs: [isTimeout, `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (about 24 days)`],
  firstByteTimeoutMs: [
    isTimeout,
    `a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (about 24 days)`,
  ],
  retry: [isRetry, '{"maxRetries", "baseDelayMs", "maxDelayMs"} with numbers of 0 or more'],
  stream: [isFlag, 'true or false'],
  maxTokens: [isCount, 'a whole number above 0'],
  headers: [isStringMap, 'an object of header names to string values'],
  region: [isText, 'an AWS region such as "us-east-1"'],
  credentials: [isCredentials, '{"accessKeyId", "secretAccessKey", "sessionToken"} strings'],
  toolResultStatus: [isFlag, 'true or false'],
  streamUsage: [isFlag, 'true or false'],
  contextWindow: [isCount, 'a whole number of tokens above 0, e.g. 200000'],
};

function readModel(value: unknown, fail: Fail): ModelConfig | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    return fail('model', 'must be an object such as {"provider": "openai", "model": "gpt-4.1-mini"}.');
  checkKeys(value, Object.keys(MODEL_SETTINGS), 'model', 'model setting', fail);
  for (const [key, setting] of Object.entries(value)) {
    const rule = MODEL_SETTINGS[key] as (typeof MODEL_SETTINGS)[string];
    if (!rule[0](setting)) fail(`model.${key}`, `must be ${rule[1]}, not ${JSON.stringify(setting)}.`);
  }
  return value as ModelConfig;
}

/**
 * Refuses a key `section` does not know, naming the one it looks like: a setting nothing reads would
 * be dropped without a word (a hook under "PreToolUse" would never run, an agent's "tool" list would
 * leave it every tool). `noun` names one key, e.g. "model setting".
 */
function checkKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  section: string,
  noun: string,
  fail: Fail,
): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    fail(
      `${section}.${key}`,
      `is not a ${noun};${didYouMean(key, known)} the ${noun}s are ${known.join(', ')}.`,
    );
  }
}

function readStrings(value: unknown, key: string, fail: Fail): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    return fail(key, 'must be a list of strings.');
  return value as string[];
}

function readApprovals(value: unknown, fail: Fail): ApprovalOptions {
  if (value === undefined) return {};
  const v = typeof value === 'string' ? { policy: value } : value;
  if (!isPlainObject(v))
    return fail('approvals', 'must be "ask", "auto", "deny" or {"policy", "timeoutMs"}.');
  checkKeys(v, ['policy', 'timeoutMs', 'pollMs', 'unattended'], 'approvals', 'approvals setting', fail);
  if (v.policy !== undefined && !['ask', 'auto', 'deny'].includes(v.policy as string)) {
    return fail('approvals', `has policy "${String(v.policy)}"; use "ask", "auto" or "deny".`);
  }
  if (v.timeoutMs !== undefined) readTimeout(v.timeoutMs, 'approvals.timeoutMs', fail);
  if (v.pollMs !== undefined) readTimeout(v.pollMs, 'approvals.pollMs', fail);
  if (v.unattended !== undefined && !isFlag(v.unattended))
    fail('approvals.unattended', 'must be true or false.');
  return v as ApprovalOptions;
}

function readTimeout(value: unknown, key: string, fail: Fail): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    fail(key, 'must be a positive number of milliseconds, e.g. 300000 for 5 minutes.');
  if ((value as number) > MAX_TIMEOUT_MS)
    fail(
      key,
      `is ${value} ms; the longest wait is ${MAX_TIMEOUT_MS} ms (about 24 days), so use that or less.`,
    );
}

const LIMIT_KEYS: readonly (keyof TurnLimits)[] = [
  'maxModelCalls',
  'maxToolCalls',
  'repeatLimit',
  'resultChars',
  'argumentChars',
  'parallelCalls',
];

function readLimits(value: unknown, fail: Fail): TurnLimits {
  if (value === undefined) return {};
  if (!isPlainObject(value)) return fail('limits', `must be an object with any of ${LIMIT_KEYS.join(', ')}.`);
  for (const [key, limit] of Object.entries(value)) {
    if (!(LIMIT_KEYS as readonly string[]).includes(key))
      fail(`limits.${key}`, `is not a limit toolseam knows; the limits are ${LIMIT_KEYS.join(', ')}.`);
    if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit <= 0)
      fail(`limits.${key}`, `must be a whole number above 0, not ${JSON.stringify(limit)}.`);
  }
  return value as TurnLimits;
}

function readToolTimeouts(value: unknown, fail: Fail): ToolTimeout[] {
  if (value === undefined) return [];
  if (!isPlainObject(value))
    return fail('toolTimeouts', 'must map tool name patterns to milliseconds, e.g. {"weather/*": 10000}.');
  return Object.entries(value).map(([tool, ms]) => {
    checkGlob(tool, `toolTimeouts.${tool}`, fail);
    readTimeout(ms, `toolTimeouts.${tool}`, fail);
    return { tool, ms: ms as number };
  });
}

/** Compiles a tool-name pattern with the runtime's own glob compiler, so a bad one fails here, not mid-turn. */
function checkGlob(pattern: string, key: string, fail: Fail): void {
  try {
    globMatch(pattern, '');
  } catch (error) {
    const why = (error as Error).message.split(': ').pop() ?? '';
    fail(
      key,
      `is not a tool name pattern toolseam can read (${JSON.stringify(pattern)}: ${why.toLowerCase()}); ` +
        'use * for any characters, ? for one, and [abc] or [a-z] (low to high) for one of a set.',
    );
  }
}

function readDenyList(value: unknown, fail: Fail): DenyRule[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    return fail('denyList', 'must be a list of tool name patterns or {"tool", "reason"}.');
  return value.map((item, i) => {
    const rule = typeof item === 'string' ? { tool: item } : item;
    if (!isPlainObject(rule) || typeof rule.tool !== 'string')
      return fail(`denyList[${i}]`, 'needs a "tool" pattern.');
    checkKeys(rule, ['tool', 'reason'], `denyList[${i}]`, 'deny rule setting', fail);
    if (rule.reason !== undefined && !isString(rule.reason))
      fail(`denyList[${i}].reason`, 'must be a string.');
    checkGlob(rule.tool, typeof item === 'string' ? `denyList[${i}]` : `denyList[${i}].tool`, fail);
    return rule as unknown as DenyRule;
  });
}

/** The pre-tool hooks; each runs in the config file's folder, as its other relative paths resolve there. */
function readHooks(value: unknown, baseDir: string, fail: Fail): PreToolHook[] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) return fail('hooks', 'must be {"preToolUse": [{"match", "command"}]}.');
  checkKeys(value, ['preToolUse'], 'hooks', 'kind of hook', fail);
  const list = value.preToolUse ?? [];
  if (!Array.isArray(list)) return fail('hooks.preToolUse', 'must be a list of {"match", "command"}.');
  return list.map((item, i) => {
    const key = `hooks.preToolUse[${i}]`;
    if (!isPlainObject(item) || typeof item.command !== 'string') return fail(key, 'needs a "command".');
    checkKeys(item, ['match', 'command', 'timeoutMs'], key, 'hook setting', fail);
    if (item.match !== undefined) {
      if (typeof item.match !== 'string')
        fail(
          `${key}.match`,
          'must be a tool name pattern such as "mcp/*" (leave it out to match every tool).',
        );
      checkGlob(item.match as string, `${key}.match`, fail);
    }
    if (item.timeoutMs !== undefined) readTimeout(item.timeoutMs, `${key}.timeoutMs`, fail);
    return { ...(item as unknown as PreToolHook), cwd: baseDir };
  });
}

function readAgents(value: unknown, fail: Fail): Record<string, AgentConfig> {
  if (value === undefined) return {};
  if (!isPlainObject(value))
    return fail('agents', 'must map agent names to {"tools", "mode", "instructions"}.');
  for (const [name, agent] of Object.entries(value)) {
    if (!isPlainObject(agent)) fail(`agents.${name}`, 'must be an object.');
    const a = agent as Record<string, unknown>;
    checkKeys(a, ['tools', 'mode', 'instructions', 'description'], `agents.${name}`, 'agent setting', fail);
    for (const text of ['instructions', 'description']) {
      if (a[text] !== undefined && !isString(a[text])) fail(`agents.${name}.${text}`, 'must be a string.');
    }
    if (a.tools !== undefined) {
      readStrings(a.tools, `agents.${name}.tools`, fail).forEach((pattern, i) => {
        checkGlob(pattern, `agents.${name}.tools[${i}]`, fail);
      });
    }
    if (a.mode !== undefined && a.mode !== 'agent' && a.mode !== 'plan')
      fail(`agents.${name}.mode`, 'must be "agent" or "plan".');
  }
  return value as Record<string, AgentConfig>;
}

function readSecrets(value: unknown, env: NodeJS.ProcessEnv, fail: Fail): Map<string, string> {
  const secrets = new Map<string, string>();
  if (value === undefined) return secrets;
  if (!isPlainObject(value)) return fail('secrets', 'must map secret names to {"env": "VARIABLE"}.');
  for (const [name, spec] of Object.entries(value)) {
    const variable = isPlainObject(spec) && typeof spec.env === 'string' ? spec.env : undefined;
    if (!variable)
      fail(`secrets.${name}`, 'must be {"env": "VARIABLE"} (secret values never live in the config).');
    checkKeys(spec as Record<string, unknown>, ['env'], `secrets.${name}`, 'secret setting', fail);
    const secret = env[variable as string];
    if (secret) secrets.set(name, secret);
  }
  return secrets;
}

const SHELL_SHAPE =
  '{"sandbox": "on" | "off", "network": true | false, "env": ["NAME", …], "read": ["path", …]}';

/** "shell": how `bash` runs; a credential never enters through it (not as a variable, not as a read place). */
function readShell(value: unknown, baseDir: string, fail: Fail): ShellOptions {
  if (value === undefined) return {};
  if (!isPlainObject(value)) return fail('shell', `must be ${SHELL_SHAPE}.`);
  checkKeys(value, ['sandbox', 'network', 'env', 'read'], 'shell', 'shell setting', fail);
  if (value.sandbox !== undefined && value.sandbox !== 'on' && value.sandbox !== 'off') {
    fail('shell.sandbox', `must be "on" (the default) or "off", not ${JSON.stringify(value.sandbox)}.`);
  }
  if (value.network !== undefined && !isFlag(value.network)) {
    fail('shell.network', `must be true or false (the default), not ${JSON.stringify(value.network)}.`);
  }
  const env = readStrings(value.env, 'shell.env', fail);
  env.forEach((name, i) => {
    if (!VARIABLE_NAME.test(name))
      fail(`shell.env[${i}]`, `is not a variable name: ${JSON.stringify(name)}.`);
    if (CREDENTIAL_WORDS.test(name)) {
      fail(
        `shell.env[${i}]`,
        `names ${name}, which by its name holds a credential, and no command gets one: store it under "secrets" and write {{secret:NAME}} in the command.`,
      );
    }
  });
  const read = readStrings(value.read, 'shell.read', fail).map((path, i) => {
    const full = isAbsolute(path)
      ? path
      : path === '~' || path.startsWith('~/')
        ? join(homedir(), path.slice(1))
        : resolve(baseDir, path);
    const place = credentialPlace(full);
    if (place !== undefined) {
      fail(
        `shell.read[${i}]`,
        `is ${place.what} (${place.found}), where credentials are kept; commands never read those.`,
      );
    }
    return full;
  });
  return {
    ...(value.sandbox === undefined ? {} : { sandbox: value.sandbox as 'on' | 'off' }),
    ...(value.network === undefined ? {} : { network: value.network as boolean }),
    ...(env.length > 0 ? { env } : {}),
    ...(read.length > 0 ? { read } : {}),
  };
}
