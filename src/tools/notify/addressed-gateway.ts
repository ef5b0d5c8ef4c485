import { channelUrl, urlHosts } from './channel-address.js';
import type { Delivery, Gateway, GatewayDeps, OutgoingMessage, Verdict } from './gateway.js';
import type { ServiceLimits } from './local-checks.js';
import type { NotifyService } from './notify-config.js';

/**
 * An adapter that posts to its channel's own address (webhook, Slack, Discord): its dry run is the address
 * check, then `checks`; its send runs the same dry run first, then `post`.
 */
export function addressedGateway(
  { config, env }: GatewayDeps,
  service: NotifyService,
  limits: ServiceLimits,
  checks: (message: OutgoingMessage) => Verdict,
  post: (url: URL, message: OutgoingMessage, key: string, signal?: AbortSignal) => Promise<Delivery>,
): Gateway {
  const ready = (message: OutgoingMessage): { readonly url: URL } | Exclude<Verdict, { ok: true }> => {
    const address = channelUrl(config, env);
    if ('refusal' in address) return address;
    const verdict = checks(message);
    return 'refusal' in verdict ? verdict : address;
  };
  return {
    channel: config.name,
    service,
    limits,
    hosts: () => urlHosts(config, env),
    async check(message) {
      const found = ready(message);
      return 'refusal' in found ? found : { ok: true };
    },
    async send(message, key, signal) {
      const found = ready(message);
      if ('refusal' in found) return { kind: 'refused', refusal: found.refusal };
      return post(found.url, message, key, signal);
    },
  };
}
