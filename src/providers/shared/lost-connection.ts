import { isPlainObject } from '../../core/json.js';

/** Codes Node, undici and the AWS SDK give a connection that could not be made or was lost. */
const LOST_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function codeOf(error: unknown): string | undefined {
  if (!(error instanceof Error) && !isPlainObject(error)) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * True when `error`, or an error it was caused by, is a lost or refused connection. Node's fetch
 * (undici) reports a connection dropped while a body is read as a plain `TypeError('terminated')`,
 * with the socket error only as its cause, and the SDKs pass that on unwrapped.
 */
export function isLostConnection(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    const code = codeOf(current);
    if (code !== undefined && LOST_CONNECTION_CODES.has(code)) return true;
    if (current instanceof TypeError && current.message === 'terminated') return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}
