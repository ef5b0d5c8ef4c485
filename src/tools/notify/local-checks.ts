import { statSync } from 'node:fs';
import { extname } from 'node:path';
import { type OutgoingMessage, refusal, type ServiceLimits, type Verdict, WOULD_SEND } from './gateway.js';
import type { FromEnv } from './notify-config.js';

export type { ServiceLimits } from './gateway.js';

function measure(text: string, unit: ServiceLimits['unit']): number {
  return unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : text.length;
}

function mib(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}

/**
 * `text` cut to fit `limits` (the caption's when `forCaption`), ending with `tail` when cut; whole
 * characters only. For a sender with more to say than a channel takes (an automation's result).
 */
export function fitText(text: string, limits: ServiceLimits, tail = ' […]', forCaption = false): string {
  const max = forCaption && limits.maxCaption !== undefined ? limits.maxCaption : limits.maxText;
  if (measure(text, limits.unit) <= max) return text;
  const room = max - measure(tail, limits.unit);
  let kept = '';
  let used = 0;
  for (const char of text) {
    const size = measure(char, limits.unit);
    if (used + size > room) break;
    kept += char;
    used += size;
  }
  return `${kept}${tail}`;
}

/** The checks every adapter runs before anything goes out: text, blocks and the attachment against its limits. */
export function localVerdict(channel: string, limits: ServiceLimits, message: OutgoingMessage): Verdict {
  const { label } = limits;
  const attachment = message.attachment;
  if (message.text.trim() === '' && attachment === undefined) {
    return refusal(
      'empty_text',
      `The message is empty; ${label} sends no empty message.`,
      'Write the text to send.',
    );
  }
  const max =
    attachment !== undefined && limits.maxCaption !== undefined ? limits.maxCaption : limits.maxText;
  const size = measure(message.text, limits.unit);
  if (size > max) {
    const what = attachment !== undefined && limits.maxCaption !== undefined ? 'a caption' : 'one message';
    return refusal(
      'text_too_long',
      `The text is ${size} ${limits.unit} long; ${label} takes at most ${max} in ${what} (channel ${channel}).`,
      'Shorten it, or send the details as a file with notify_attachment.',
    );
  }
  const blocks = message.blocks?.length ?? 0;
  if (blocks > 0 && limits.maxBlocks === 0) {
    return refusal(
      'blocks_unsupported',
      `${label} takes no structured blocks (channel ${channel}).`,
      'Send the text alone.',
    );
  }
  if (blocks > limits.maxBlocks) {
    return refusal(
      'too_many_blocks',
      `The message has ${blocks} blocks; ${label} takes at most ${limits.maxBlocks} in one message (channel ${channel}).`,
      'Send fewer blocks, or put the rest in the text.',
    );
  }
  if (attachment === undefined) return WOULD_SEND;
  if (limits.attachments === undefined) {
    return refusal(
      'attachment_unsupported',
      `${label} takes no files through this kind of channel (channel ${channel}).`,
      'Send a text message instead, or pick a channel of a service that takes files.',
    );
  }
  const now = statSync(attachment.path, { throwIfNoEntry: false });
  if (now === undefined || !now.isFile()) {
    return refusal('attachment_missing', `${attachment.name} is no longer there to send.`);
  }
  if (now.size > limits.attachments.maxBytes) {
    return refusal(
      'attachment_too_large',
      `${attachment.name} is ${mib(now.size)}; ${label} takes files of at most ${mib(limits.attachments.maxBytes)} (channel ${channel}).`,
      'Send a smaller file (compress it or send a part), or say where the file is in the text.',
    );
  }
  const types = limits.attachments.types;
  const ending = extname(attachment.name).toLowerCase();
  if (types !== undefined && !types.includes(ending)) {
    return refusal(
      'attachment_type_refused',
      `Files ending in ${ending || '(no ending)'} are not sent through channel ${channel}; it takes ${types.join(', ')}.`,
    );
  }
  return WOULD_SEND;
}

/** A credential read from the environment, or the refusal a message gets while it is not set. */
export function credential(
  env: NodeJS.ProcessEnv,
  from: FromEnv | undefined,
  channel: string,
  what: string,
): { readonly value: string } | ReturnType<typeof refusal> {
  const value = from === undefined ? undefined : env[from.env];
  if (value !== undefined && value.trim() !== '') return { value: value.trim() };
  return refusal(
    'credentials_missing',
    `Channel ${channel} has no ${what}: the environment variable ${from?.env ?? '(none named)'} is not set where toolseam runs.`,
    `The person sets ${from?.env ?? 'it'} and starts toolseam again.`,
  );
}

const TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.html': 'text/html',
  '.zip': 'application/zip',
  '.log': 'text/plain',
};

/** A file's media type from its name (application/octet-stream when the ending is not a common one). */
export function mediaType(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}
