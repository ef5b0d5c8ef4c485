import type { Logger } from '../../core/logger.js';
import { credentialVariables, MIN_REDACTED_LENGTH } from '../redact-secrets.js';
import type { McpServerTarget } from './mcp-server-target.js';
import { looksLikeSecret, namedLikeSecret } from './shown-command.js';

/** A header named like a credential, or one that carries cookies. */
const CREDENTIAL_HEADER = /(?:key|token|secret|passw(?:or)?d|auth|credential|cookie)/i;

/** `Bearer abc`: the scheme, then the credential itself. */
const SCHEME_VALUE = /^(?:Bearer|Basic|Token)\s+(\S+)$/i;

/**
 * The credentials an HTTP server's entry carries, name → value: its URL's password, query values named
 * like a key (`?api_key=`, `?exaApiKey=`), path parts that look like one (`/mcp/sk-…/sse`) and the
 * values of credential headers (`Authorization`'s token). Messages and results hide them, since a
 * failure quotes the URL and a server may quote what it was sent.
 */
export function httpCredentials(url: string, headers: Readonly<Record<string, string>>): Map<string, string> {
  const found = new Map<string, string>();
  const add = (name: string, value: string) => {
    if (value.length < MIN_REDACTED_LENGTH) return;
    let key = name;
    for (let n = 2; found.has(key); n += 1) key = `${name}_${n}`;
    found.set(key, value);
  };
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined) {
    if (parsed.password !== '') add('URL_PASSWORD', decoded(parsed.password));
    for (const [name, value] of parsed.searchParams) if (namedLikeSecret(name)) add(name, value);
    for (const part of parsed.pathname.split('/')) {
      const value = decoded(part);
      if (looksLikeSecret(value)) add('URL_PATH_KEY', value);
    }
  }
  for (const [name, value] of Object.entries(headers)) {
    if (!CREDENTIAL_HEADER.test(name)) continue;
    add(name, SCHEME_VALUE.exec(value.trim())?.[1] ?? value);
  }
  return found;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The credentials a server is given, name → value: its environment's (stdio), or its URL's and headers' (HTTP). */
export function serverCredentials(target: McpServerTarget): Map<string, string> {
  if (target.kind === 'stdio') return credentialVariables({ ...target.env });
  if (target.kind !== 'http') return new Map();
  // The configured URL holds the password; the headers as sent hold it again as the Basic token.
  const sent = urlCredentialsAsHeader(target);
  return httpCredentials(target.url, sent.kind === 'http' ? sent.headers : target.headers);
}

/**
 * An HTTP target whose URL had a user and password (`https://user:pass@host/mcp`, which fetch refuses)
 * with them taken out of the URL and sent as HTTP Basic authorization, unless its headers already
 * authorize (then they are left unused, and `logger` says so); any other target as it is.
 */
export function urlCredentialsAsHeader(target: McpServerTarget, logger?: Logger): McpServerTarget {
  if (target.kind !== 'http') return target;
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return target;
  }
  if (url.username === '' && url.password === '') return target;
  const pair = `${decoded(url.username)}:${decoded(url.password)}`;
  url.username = '';
  url.password = '';
  const authorized = Object.keys(target.headers).some((name) => name.toLowerCase() === 'authorization');
  if (authorized) {
    logger?.log({
      level: 'warn',
      scope: 'mcp',
      message: `MCP server "${target.name}": the user and password in its "url" are not used, because its "headers" set Authorization; remove one of the two.`,
      fields: { server: target.name },
    });
    return { ...target, url: url.href };
  }
  const basic = `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
  return { ...target, url: url.href, headers: { ...target.headers, Authorization: basic } };
}
