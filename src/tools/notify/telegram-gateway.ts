import { openAsBlob } from 'node:fs';
import type { Delivery, Gateway, GatewayDeps, OutgoingMessage, Verdict } from './gateway.js';
import { WOULD_SEND } from './gateway.js';
import { answerDelivery, attempt, headerWait, jsonBody } from './http-delivery.js';
import { credential, localVerdict, type ServiceLimits } from './local-checks.js';

/** Telegram's answer to a Bot API call: `{ok, result}` or `{ok: false, error_code, description, parameters}`. */
function telegramAnswer(status: number, body: Record<string, unknown> | undefined, response: Response) {
  const parameters = body?.parameters as { retry_after?: unknown } | undefined;
  const seconds = typeof parameters?.retry_after === 'number' ? parameters.retry_after : undefined;
  return {
    status: typeof body?.error_code === 'number' ? body.error_code : status,
    words: typeof body?.description === 'string' ? body.description : '',
    afterMs: seconds === undefined ? headerWait(response) : seconds * 1000,
  };
}

/**
 * The Telegram Bot API: `sendMessage` (text of 1 to 4,096 characters) and `sendDocument` (a file of up to
 * 50 MB, a caption of up to 1,024 characters). The dry run also asks `getChat`, which changes nothing:
 * an unknown chat, a bot the chat blocked or a rejected token refuse before anything is sent, and a
 * `getChat` that cannot be made (Telegram unreachable, busy) refuses nothing. 429 answers carry
 * `parameters.retry_after` in seconds. No idempotency key: a message whose answer was lost may arrive twice.
 */
export function telegramGateway({ config, env, fetch }: GatewayDeps): Gateway {
  const limits: ServiceLimits = {
    label: 'Telegram',
    maxText: 4096,
    maxCaption: 1024,
    unit: 'characters',
    maxBlocks: 0,
    attachments: { maxBytes: config.maxAttachmentBytes ?? 50 * 1000 * 1000, types: config.attachmentTypes },
  };
  const base = (config.apiBase ?? 'https://api.telegram.org').replace(/\/+$/, '');
  const method = (token: string, name: string) => `${base}/bot${token}/${name}`;
  const local = (message: OutgoingMessage) => {
    const token = credential(env, config.token, config.name, 'bot token');
    if ('refusal' in token) return token;
    const verdict = localVerdict(config.name, limits, message);
    return 'refusal' in verdict ? verdict : { token: token.value };
  };
  const remote = async (token: string, signal?: AbortSignal): Promise<Verdict> => {
    const url = new URL(method(token, 'getChat'));
    url.searchParams.set('chat_id', config.chatId ?? '');
    const found: Delivery = await attempt(
      fetch,
      url.href,
      { method: 'GET', ...(signal ? { signal } : {}) },
      async (response) => {
        const body = await jsonBody(response);
        if (response.ok && body?.ok === true) return { kind: 'sent' };
        const answer = telegramAnswer(response.status, body, response);
        const code =
          answer.status === 401 || answer.status === 404
            ? 'credentials_rejected'
            : answer.status === 400
              ? 'unknown_chat'
              : answer.status === 403
                ? 'chat_refused'
                : undefined;
        return answerDelivery('Telegram', { ...answer, ...(code ? { code } : {}) });
      },
    );
    // A check that cannot decide (unreachable, rate-limited, Telegram's own trouble) refuses nothing.
    return found.kind === 'refused' ? { refusal: found.refusal } : WOULD_SEND;
  };
  return {
    channel: config.name,
    service: 'telegram',
    limits,
    hosts: () => [new URL(base).host.toLowerCase()],
    async check(message, signal) {
      const ready = local(message);
      if ('refusal' in ready) return ready;
      return remote(ready.token, signal);
    },
    async send(message, _key, signal) {
      const ready = local(message);
      if ('refusal' in ready) return { kind: 'refused', refusal: ready.refusal };
      const attachment = message.attachment;
      let init: RequestInit;
      let name: string;
      if (attachment === undefined) {
        name = 'sendMessage';
        init = {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ chat_id: config.chatId, text: message.text }),
        };
      } else {
        name = 'sendDocument';
        const form = new FormData();
        form.set('chat_id', config.chatId ?? '');
        if (message.text.trim() !== '') form.set('caption', message.text);
        form.set('document', await openAsBlob(attachment.path, { type: attachment.type }), attachment.name);
        init = { method: 'POST', body: form };
      }
      return attempt(
        fetch,
        method(ready.token, name),
        { ...init, ...(signal ? { signal } : {}) },
        async (response) => {
          const body = await jsonBody(response);
          if (response.ok && body?.ok === true) {
            const id = (body.result as { message_id?: unknown } | undefined)?.message_id;
            return { kind: 'sent', receipt: typeof id === 'number' ? String(id) : undefined };
          }
          return answerDelivery('Telegram', telegramAnswer(response.status, body, response));
        },
      );
    },
  };
}
