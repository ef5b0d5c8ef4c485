import { InputError } from '../../core/errors.js';
import { isPlainObject } from '../../core/json.js';
import { nearMiss } from '../arguments/near-miss.js';

/** The services a notify channel can go through, each with an adapter of its own. */
export const NOTIFY_SERVICES = ['webhook', 'ntfy', 'slack', 'discord', 'telegram'] as const;

/** One of `NOTIFY_SERVICES`. */
export type NotifyService = (typeof NOTIFY_SERVICES)[number];

/** A value read from an environment variable when a message is checked (secrets never live in the config). */
export interface FromEnv {
  readonly env: string;
}

/** One configured channel: a service and where it delivers. */
export interface ChannelConfig {
  readonly name: string;
  readonly service: NotifyService;
  /** webhook (text or from the environment), slack and discord (from the environment): the address posted to. */
  readonly url?: string | FromEnv;
  /** ntfy: the server (default https://ntfy.sh) and the topic. */
  readonly server?: string;
  readonly topic?: string;
  /** ntfy and webhook: a bearer token (optional); telegram: the bot token (required). */
  readonly token?: FromEnv;
  /** telegram: the chat messages go to, and the Bot API's address (default https://api.telegram.org). */
  readonly chatId?: string;
  readonly apiBase?: string;
  /** The largest attachment this channel takes, in bytes (default: the service's own limit). */
  readonly maxAttachmentBytes?: number;
  /** File name endings this channel takes as attachments (default: any the service takes). */
  readonly attachmentTypes?: readonly string[];
}

/** The "notify" section of toolseam.json, checked. */
export interface NotifyConfig {
  readonly channels: Readonly<Record<string, ChannelConfig>>;
  /** The channel a message naming none goes to (the only one, when there is one). */
  readonly default?: string;
  /** Attempts per message before it is given up as failed (default 8). */
  readonly maxAttempts?: number;
}

type Fail = (key: string, what: string) => never;

const SHAPE =
  '{"channels": {"NAME": {"service": "webhook" | "ntfy" | "slack" | "discord" | "telegram", …}}, "default": "NAME"}';

const CHANNEL_KEYS: Readonly<Record<NotifyService, readonly string[]>> = {
  webhook: ['service', 'url', 'token', 'maxAttachmentBytes', 'attachmentTypes'],
  ntfy: ['service', 'server', 'topic', 'token', 'maxAttachmentBytes', 'attachmentTypes'],
  slack: ['service', 'url'],
  discord: ['service', 'url', 'maxAttachmentBytes', 'attachmentTypes'],
  telegram: ['service', 'token', 'chatId', 'apiBase', 'maxAttachmentBytes', 'attachmentTypes'],
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkKeys(
  value: Record<string, unknown>,
  allowed: readonly string[],
  key: string,
  fail: Fail,
): void {
  for (const found of Object.keys(value)) {
    if (allowed.includes(found)) continue;
    const meant = nearMiss(found, allowed);
    fail(
      `${key}.${found}`,
      `is not a setting here;${meant ? ` did you mean "${meant}"?` : ''} the settings are ${allowed.join(', ')}.`,
    );
  }
}

function readEnv(value: unknown, key: string, fail: Fail): FromEnv {
  if (!isPlainObject(value) || typeof value.env !== 'string' || !ENV_NAME.test(value.env)) {
    return fail(key, 'must be {"env": "VARIABLE"}: the value is read from that environment variable.');
  }
  checkKeys(value, ['env'], key, fail);
  return { env: value.env };
}

function readHttpUrl(value: unknown, key: string, fail: Fail): string {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return fail(key, `must be an http(s) address, not ${JSON.stringify(value)}.`);
  }
  return value as string;
}

function readChannel(name: string, value: unknown, fail: Fail): ChannelConfig {
  const key = `notify.channels.${name}`;
  if (!isPlainObject(value))
    return fail(key, `must be an object with a "service" (${NOTIFY_SERVICES.join(', ')}).`);
  const service = value.service;
  if (!NOTIFY_SERVICES.includes(service as NotifyService)) {
    const meant = typeof service === 'string' ? nearMiss(service, NOTIFY_SERVICES) : undefined;
    return fail(
      `${key}.service`,
      `must be one of ${NOTIFY_SERVICES.join(', ')}, not ${JSON.stringify(service)}.${meant ? ` Did you mean "${meant}"?` : ''}`,
    );
  }
  const kind = service as NotifyService;
  checkKeys(value, CHANNEL_KEYS[kind], key, fail);
  const channel: { -readonly [K in keyof ChannelConfig]: ChannelConfig[K] } = { name, service: kind };
  if (kind === 'webhook') {
    if (value.url === undefined) fail(`${key}.url`, 'is missing: the address the JSON is posted to.');
    channel.url = isPlainObject(value.url)
      ? readEnv(value.url, `${key}.url`, fail)
      : readHttpUrl(value.url, `${key}.url`, fail);
  }
  if (kind === 'slack' || kind === 'discord') {
    // The address itself is the credential: whoever has it can post, so it comes from the environment.
    if (typeof value.url === 'string') {
      fail(
        `${key}.url`,
        `holds the ${kind} webhook address, which is a secret: write {"env": "VARIABLE"} and set it there.`,
      );
    }
    channel.url = readEnv(value.url, `${key}.url`, fail);
  }
  if (kind === 'ntfy') {
    channel.server =
      value.server === undefined ? 'https://ntfy.sh' : readHttpUrl(value.server, `${key}.server`, fail);
    if (typeof value.topic !== 'string' || !/^[-_A-Za-z0-9]{1,64}$/.test(value.topic)) {
      fail(`${key}.topic`, 'must be a topic name: 1 to 64 letters, digits, - or _.');
    }
    channel.topic = value.topic as string;
  }
  if (kind === 'telegram') {
    channel.token = readEnv(value.token, `${key}.token`, fail);
    if (typeof value.chatId !== 'string' && typeof value.chatId !== 'number') {
      fail(`${key}.chatId`, 'must be the chat id (a number, or @channelname for a public channel).');
    }
    channel.chatId = String(value.chatId);
    channel.apiBase =
      value.apiBase === undefined
        ? 'https://api.telegram.org'
        : readHttpUrl(value.apiBase, `${key}.apiBase`, fail);
  } else if (value.token !== undefined) {
    channel.token = readEnv(value.token, `${key}.token`, fail);
  }
  if (value.maxAttachmentBytes !== undefined) {
    const max = value.maxAttachmentBytes;
    if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 1) {
      fail(`${key}.maxAttachmentBytes`, 'must be a whole number of bytes above 0.');
    }
    channel.maxAttachmentBytes = max as number;
  }
  if (value.attachmentTypes !== undefined) {
    const types = value.attachmentTypes;
    if (!Array.isArray(types) || !types.every((t) => typeof t === 'string' && /^\.?[A-Za-z0-9]+$/.test(t))) {
      fail(`${key}.attachmentTypes`, 'must list file name endings, such as [".pdf", ".png"].');
    }
    channel.attachmentTypes = (types as string[]).map((t) => (t.startsWith('.') ? t : `.${t}`).toLowerCase());
  }
  return channel;
}

/** Reads toolseam.json's "notify" section; undefined when it has none. */
export function readNotifyConfig(value: unknown, fail: Fail): NotifyConfig | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) return fail('notify', `must be ${SHAPE}.`);
  checkKeys(value, ['channels', 'default', 'maxAttempts'], 'notify', fail);
  if (!isPlainObject(value.channels) || Object.keys(value.channels).length === 0) {
    return fail('notify.channels', `must name at least one channel: ${SHAPE}.`);
  }
  const channels: Record<string, ChannelConfig> = {};
  for (const [name, spec] of Object.entries(value.channels)) {
    if (!/^[-_.A-Za-z0-9]{1,64}$/.test(name)) {
      fail(`notify.channels.${name}`, 'is not a channel name: use 1 to 64 letters, digits, -, _ or .');
    }
    channels[name] = readChannel(name, spec, fail);
  }
  const names = Object.keys(channels);
  if (value.default !== undefined && (typeof value.default !== 'string' || !names.includes(value.default))) {
    fail(
      'notify.default',
      `must be one of the channels (${names.join(', ')}), not ${JSON.stringify(value.default)}.`,
    );
  }
  const max = value.maxAttempts;
  if (max !== undefined && (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 1 || max > 100)) {
    fail('notify.maxAttempts', 'must be a whole number from 1 to 100.');
  }
  return {
    channels,
    ...(typeof value.default === 'string' ? { default: value.default } : {}),
    ...(typeof max === 'number' ? { maxAttempts: max } : {}),
  };
}

/** Reads a "notify" section given on its own (tests, hosts); throws InputError naming the key. */
export function parseNotifyConfig(value: unknown): NotifyConfig | undefined {
  return readNotifyConfig(value, (key, what) => {
    throw new InputError(`"${key}" ${what}`);
  });
}

/**
 * The credentials the channels read from the environment (tokens, and Slack's and Discord's webhook
 * addresses), name → value, for the runtime to hide from tool results as it hides the config's own.
 */
export function notifyCredentials(
  config: NotifyConfig | undefined,
  env: NodeJS.ProcessEnv,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const channel of Object.values(config?.channels ?? {})) {
    for (const [what, from] of [
      ['url', channel.url],
      ['token', channel.token],
    ] as const) {
      const value = typeof from === 'object' ? env[from.env]?.trim() : undefined;
      if (value) out.set(`notify.channels.${channel.name}.${what}`, value);
    }
  }
  return out;
}
