import { readFile } from 'node:fs/promises';
import { addressedGateway } from './addressed-gateway.js';
import type { Gateway, GatewayDeps, OutgoingMessage } from './gateway.js';
import { answerDelivery, attempt, headerWait, jsonBody } from './http-delivery.js';
import { credential, localVerdict, type ServiceLimits } from './local-checks.js';

async function body(channel: string, message: OutgoingMessage): Promise<string> {
  const attachment = message.attachment;
  return JSON.stringify({
    channel,
    text: message.text,
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(attachment
      ? {
          attachment: {
            name: attachment.name,
            type: attachment.type,
            size: attachment.size,
            base64: (await readFile(attachment.path)).toString('base64'),
          },
        }
      : {}),
  });
}

/**
 * A generic webhook: the message posted as JSON `{channel, text, blocks?, attachment?}` (an attachment as
 * base64 with its name, type and size), with an `Idempotency-Key` header the receiver may use to drop a
 * repeat. Any 2xx is delivered; 429 (Retry-After), 408 and 5xx are tried again; any other status is a refusal.
 */
export function webhookGateway(deps: GatewayDeps): Gateway {
  const { config, env } = deps;
  const limits: ServiceLimits = {
    label: 'The webhook',
    maxText: 100_000,
    unit: 'characters',
    maxBlocks: 50,
    attachments: { maxBytes: config.maxAttachmentBytes ?? 5 * 1024 * 1024, types: config.attachmentTypes },
  };
  const token = () =>
    config.token === undefined ? undefined : credential(env, config.token, config.name, 'token');
  const checks = (message: OutgoingMessage) => {
    const found = token();
    return found !== undefined && 'refusal' in found ? found : localVerdict(config.name, limits, message);
  };
  return addressedGateway(deps, 'webhook', limits, checks, async (url, message, key, signal) => {
    const found = token();
    const init: RequestInit = {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'idempotency-key': key,
        ...(found && 'value' in found ? { authorization: `Bearer ${found.value}` } : {}),
      },
      body: await body(config.name, message),
      ...(signal ? { signal } : {}),
    };
    return attempt(deps.fetch, url.href, init, async (response) => {
      const text = await response.text().catch(() => '');
      const answer = await jsonBody(new Response(text));
      if (response.ok) {
        const id = answer?.id;
        return {
          kind: 'sent',
          receipt: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
        };
      }
      const said = answer?.error ?? answer?.message;
      const words = typeof said === 'string' ? said : text.slice(0, 300);
      return answerDelivery('The webhook', { status: response.status, words, afterMs: headerWait(response) });
    });
  });
}
