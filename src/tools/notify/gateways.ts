import { discordGateway } from './discord-gateway.js';
import type { Gateway, GatewayDeps } from './gateway.js';
import { ntfyGateway } from './ntfy-gateway.js';
import { slackGateway } from './slack-gateway.js';
import { telegramGateway } from './telegram-gateway.js';
import { webhookGateway } from './webhook-gateway.js';

const ADAPTERS = {
  webhook: webhookGateway,
  ntfy: ntfyGateway,
  slack: slackGateway,
  discord: discordGateway,
  telegram: telegramGateway,
} as const;

/** The adapter for a configured channel, by its service. */
export function gatewayFor(deps: GatewayDeps): Gateway {
  return ADAPTERS[deps.config.service](deps);
}
