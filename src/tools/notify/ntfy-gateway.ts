import { openAsBlob } from 'node:fs';
import type { Gateway, GatewayDeps, OutgoingMessage } from './gateway.js';
import { answerDelivery, attempt, headerWait, jsonBody } from './http-delivery.js';
import { credential, localVerdict, type ServiceLimits } from './local-checks.js';

/**
 * ntfy: a message is the body of a POST to `server/topic`; a file is the body of a PUT there with its
 * name (and the text) as query parameters. ntfy turns a body over 4,096 bytes into an attachment, so a
 * longer text is refused; ntfy.sh keeps files up to 15 MB (a server of one's own sets its own limit:
 * `maxAttachmentBytes`). Errors come as `{code, http, error}`; 429 means a visitor limit was reached.
 * ntfy takes no idempotency key: a message whose answer was lost may arrive twice.
 */
export function ntfyGateway({ config, env, fetch }: GatewayDeps): Gateway {
  const limits: ServiceLimits = {
    label: 'ntfy',
    maxText: 4096,
    unit: 'bytes',
    maxBlocks: 0,
    attachments: { maxBytes: config.maxAttachmentBytes ?? 15 * 1000 * 1000, types: config.attachmentTypes },
  };
  const server = (config.server ?? 'https://ntfy.sh').replace(/\/+$/, '');
  const topicUrl = `${server}/${config.topic ?? ''}`;
  const ready = (message: OutgoingMessage) => {
    if (config.token !== undefined) {
      const token = credential(env, config.token, config.name, 'access token');
      if ('refusal' in token) return token;
    }
    return localVerdict(config.name, limits, message);
  };
  return {
    channel: config.name,
    service: 'ntfy',
    limits,
    hosts: () => [new URL(server).host.toLowerCase()],
    async check(message) {
      return ready(message);
    },
    async send(message, _key, signal) {
      const verdict = ready(message);
      if ('refusal' in verdict) return { kind: 'refused', refusal: verdict.refusal };
      const token =
        config.token === undefined ? undefined : credential(env, config.token, config.name, 'token');
      const auth = token && 'value' in token ? { authorization: `Bearer ${token.value}` } : {};
      const attachment = message.attachment;
      const url = new URL(topicUrl);
      let init: RequestInit;
      if (attachment === undefined) {
        init = {
          method: 'POST',
          headers: { 'content-type': 'text/plain; charset=utf-8', ...auth },
          body: message.text,
        };
      } else {
        url.searchParams.set('filename', attachment.name);
        if (message.text.trim() !== '') url.searchParams.set('message', message.text);
        init = { method: 'PUT', headers: { ...auth }, body: await openAsBlob(attachment.path) };
      }
      return attempt(fetch, url.href, { ...init, ...(signal ? { signal } : {}) }, async (response) => {
        const answer = await jsonBody(response);
        if (response.ok)
          return { kind: 'sent', receipt: typeof answer?.id === 'string' ? answer.id : undefined };
        const words = typeof answer?.error === 'string' ? answer.error : '';
        const code = response.status === 401 || response.status === 403 ? 'credentials_rejected' : undefined;
        return answerDelivery('ntfy', {
          status: response.status,
          words: typeof answer?.code === 'number' ? `${words} (code ${answer.code})` : words,
          afterMs: headerWait(response),
          ...(code ? { code } : {}),
        });
      });
    },
  };
}
