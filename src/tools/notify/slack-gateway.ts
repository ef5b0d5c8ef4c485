import { addressedGateway } from './addressed-gateway.js';
import type { Gateway, GatewayDeps } from './gateway.js';
import { answerDelivery, attempt, headerWait } from './http-delivery.js';
import { localVerdict, type ServiceLimits } from './local-checks.js';

// Slack answers an incoming webhook with a short text: "ok", or an error name such as invalid_payload,
// no_text, channel_not_found, channel_is_archived or action_prohibited (4xx), or rollup_error (500).
const SLACK_HINTS: Readonly<Record<string, string>> = {
  channel_is_archived: 'The Slack channel was archived; the person points the webhook at another channel.',
  channel_not_found: 'The Slack channel is gone; the person makes a new incoming webhook.',
  no_service: 'The webhook was removed or disabled in Slack; the person makes a new one.',
  invalid_token: 'The webhook address is no longer valid; the person makes a new one.',
  action_prohibited: 'A Slack admin restricted posting there.',
};

/**
 * Slack incoming webhooks: `{text, blocks?}` posted as JSON. Slack keeps at most 50 blocks per message and
 * cuts text past 40,000 characters, so both are refused beforehand; an incoming webhook takes no files.
 * About one message a second per webhook: past that Slack answers 429 with Retry-After. No idempotency key:
 * a message whose answer was lost may arrive twice.
 */
export function slackGateway(deps: GatewayDeps): Gateway {
  const limits: ServiceLimits = { label: 'Slack', maxText: 40_000, unit: 'characters', maxBlocks: 50 };
  return addressedGateway(
    deps,
    'slack',
    limits,
    (message) => localVerdict(deps.config.name, limits, message),
    (url, message, _key, signal) =>
      attempt(
        deps.fetch,
        url.href,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) }),
          ...(signal ? { signal } : {}),
        },
        async (response) => {
          const words = (await response.text().catch(() => '')).trim().slice(0, 300);
          if (response.ok) return { kind: 'sent' };
          const hint = SLACK_HINTS[words];
          return answerDelivery('Slack', {
            status: response.status,
            words,
            afterMs: headerWait(response),
            ...(hint ? { hints: [hint] } : {}),
          });
        },
      ),
  );
}
