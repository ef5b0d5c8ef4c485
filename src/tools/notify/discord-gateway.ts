import { openAsBlob } from 'node:fs';
import { addressedGateway } from './addressed-gateway.js';
import type { Gateway, GatewayDeps, OutgoingMessage } from './gateway.js';
import { refusal } from './gateway.js';
import { answerDelivery, attempt, headerWait, jsonBody } from './http-delivery.js';
import { localVerdict, type ServiceLimits } from './local-checks.js';

async function requestInit(message: OutgoingMessage): Promise<RequestInit> {
  const payload = {
    content: message.text,
    ...(message.blocks ? { embeds: message.blocks } : {}),
    allowed_mentions: { parse: [] },
  };
  const attachment = message.attachment;
  if (attachment === undefined) {
    return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) };
  }
  const form = new FormData();
  form.set(
    'payload_json',
    JSON.stringify({ ...payload, attachments: [{ id: 0, filename: attachment.name }] }),
  );
  form.set('files[0]', await openAsBlob(attachment.path, { type: attachment.type }), attachment.name);
  return { method: 'POST', body: form };
}

/**
 * Discord webhooks: `{content, embeds?}` posted as JSON, or as the `payload_json` part of a multipart body
 * with the file as `files[0]`; `?wait=true` makes Discord answer with the message (and its id). Content is
 * at most 2,000 characters, embeds (the blocks) at most 10, files 10 MiB unless the server allows more
 * (`maxAttachmentBytes`). A 429 carries `retry_after` in seconds and a Retry-After header; errors come as
 * `{code, message}` (10015: the webhook is gone). No idempotency key: a message whose answer was lost may
 * arrive twice.
 */
export function discordGateway(deps: GatewayDeps): Gateway {
  const { config } = deps;
  const limits: ServiceLimits = {
    label: 'Discord',
    maxText: 2000,
    unit: 'characters',
    maxBlocks: 10,
    attachments: { maxBytes: config.maxAttachmentBytes ?? 10 * 1024 * 1024, types: config.attachmentTypes },
  };
  const checks = (message: OutgoingMessage) => {
    const at =
      message.blocks?.findIndex((b) => typeof b !== 'object' || b === null || Array.isArray(b)) ?? -1;
    if (at >= 0) {
      return refusal(
        'bad_blocks',
        `Block ${at + 1} is not an object; Discord's blocks are embeds, each an object such as {"title": …, "description": …}.`,
      );
    }
    return localVerdict(config.name, limits, message);
  };
  return addressedGateway(deps, 'discord', limits, checks, async (address, message, _key, signal) => {
    const url = new URL(address);
    url.searchParams.set('wait', 'true');
    const init = await requestInit(message);
    return attempt(deps.fetch, url.href, { ...init, ...(signal ? { signal } : {}) }, async (response) => {
      const answer = await jsonBody(response);
      if (response.ok)
        return { kind: 'sent', receipt: typeof answer?.id === 'string' ? answer.id : undefined };
      const seconds = typeof answer?.retry_after === 'number' ? answer.retry_after : undefined;
      const words = typeof answer?.message === 'string' ? answer.message : '';
      const code = typeof answer?.code === 'number' ? answer.code : undefined;
      return answerDelivery('Discord', {
        status: response.status,
        words: code === undefined ? words : `${words} (code ${code})`,
        afterMs: seconds === undefined ? headerWait(response) : Math.ceil(seconds * 1000),
        ...(code === 10015
          ? { hints: ['The Discord webhook was deleted; the person makes a new one.'] }
          : {}),
      });
    });
  });
}
