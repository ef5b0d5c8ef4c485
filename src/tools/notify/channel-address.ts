import { type NotifyRefusal, refusal } from './gateway.js';
import { credential } from './local-checks.js';
import type { ChannelConfig } from './notify-config.js';

/** A channel's `url` (written in the config or read from the environment), or why it has none. */
export function channelUrl(
  config: ChannelConfig,
  env: NodeJS.ProcessEnv,
): { readonly url: URL } | { readonly refusal: NotifyRefusal } {
  const given = config.url;
  const text =
    typeof given === 'string' ? { value: given } : credential(env, given, config.name, 'webhook address');
  if ('refusal' in text) return text;
  try {
    const url = new URL(text.value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return { url };
  } catch {
    // Told below, without the value: it may be a secret.
  }
  return refusal(
    'bad_address',
    `Channel ${config.name}'s address is not an http(s) address${typeof given === 'string' ? '' : ` (read from ${given?.env})`}.`,
  );
}

/** The host:port a channel's url reaches, when it has a readable one. */
export function urlHosts(config: ChannelConfig, env: NodeJS.ProcessEnv): readonly string[] | undefined {
  const found = channelUrl(config, env);
  return 'url' in found ? [found.url.host.toLowerCase()] : undefined;
}
