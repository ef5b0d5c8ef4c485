import { ToolseamError } from '../../core/errors.js';
import type { GatewayFetch } from './gateway.js';

/** A request toolseam would not make: to a host no gateway is configured for, or a redirect elsewhere. */
export class OutboundRefused extends ToolseamError {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super('notify_outbound_refused', message);
  }
}

const MAX_REDIRECTS = 3;
/** How long one request may take before it counts as a lost connection. */
export const GATEWAY_TIMEOUT_MS = 30_000;

/**
 * fetch that reaches only `allowed()` hosts (host:port of the configured gateways): a request elsewhere and
 * a redirect elsewhere throw OutboundRefused; a 307/308 to an allowed host is followed with the same body.
 */
export function guardedFetch(allowed: () => ReadonlySet<string>, base: typeof fetch = fetch): GatewayFetch {
  return async (url, init) => {
    let target = new URL(url);
    for (let hop = 0; ; hop++) {
      if (!allowed().has(target.host.toLowerCase())) {
        const why =
          hop === 0
            ? `${target.host} is not the host of a configured notify gateway`
            : `the gateway redirected to ${target.host}, which is not the host of a configured notify gateway`;
        throw new OutboundRefused(
          `toolseam sends notifications only to the configured gateways: ${why}.`,
          target.href,
        );
      }
      const signal = init.signal
        ? AbortSignal.any([init.signal, AbortSignal.timeout(GATEWAY_TIMEOUT_MS)])
        : AbortSignal.timeout(GATEWAY_TIMEOUT_MS);
      const response = await base(target, { ...init, redirect: 'manual', signal });
      if (response.status < 300 || response.status > 399) return response;
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (location === null || hop >= MAX_REDIRECTS || (response.status !== 307 && response.status !== 308)) {
        throw new OutboundRefused(
          `The gateway answered ${response.status} ${location ? `(a redirect to ${location}) ` : ''}instead of taking the message; toolseam follows only a 307 or 308 to a configured gateway host, ${MAX_REDIRECTS} at most.`,
          target.href,
        );
      }
      target = new URL(location, target);
    }
  };
}
