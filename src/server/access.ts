import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { ApiError } from './api-error.js';
import { cookieValue, sameSecret } from './server-token.js';

/** The session cookie the page gets from `POST /api/sign-in`. */
export const SESSION_COOKIE = 'toolseam_session';

/** Who may come in: on loopback, requests for the server's own names; elsewhere, holders of the token. */
export interface Access {
  /** Bound to a loopback address: no token, but the Host header must name this server. */
  readonly loopback: boolean;
  /** The `Host` values this server answers on loopback (set once it listens: they carry its port). */
  hosts: ReadonlySet<string>;
  /** Off loopback: the token. */
  readonly token?: string;
}

/** Paths under /api/ that need no token: a load balancer's check and the exchange of the token for a cookie. */
const OPEN = new Set(['/api/health', '/api/sign-in']);

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The `Host` values of a server on loopback port `port`. */
export function loopbackHosts(port: number): Set<string> {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  // A client leaves the default port out of Host.
  return new Set(names.flatMap((n) => (port === 80 ? [n, `${n}:80`] : [`${n}:${port}`])));
}

/**
 * Refuses, before any route runs: on loopback a Host that is not this server's (DNS rebinding), reads
 * included; a state-changing request whose Origin is another site's; off loopback, an API request
 * without the token (header or cookie).
 */
export function accessGuard(access: Access): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host') ?? '';
    if (access.loopback && !access.hosts.has(host.toLowerCase())) {
      throw new ApiError(
        403,
        'forbidden_host',
        `This server answers only requests for its own address (${[...access.hosts].join(', ')}), not for "${host}".`,
      );
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && CHANGES.has(c.req.method) && !sameOrigin(origin, host)) {
      throw new ApiError(
        403,
        'forbidden_origin',
        `A page from ${origin} may not change anything here; only this server's own page may.`,
      );
    }
    const path = c.req.path;
    if (
      access.token !== undefined &&
      path.startsWith('/api/') &&
      !OPEN.has(path) &&
      !signedIn(c, access.token)
    ) {
      throw new ApiError(
        401,
        'unauthorized',
        'This server needs its token: send "Authorization: Bearer TOKEN", or sign in with POST /api/sign-in. ' +
          'The token is in the file beside the database ending in .token.',
      );
    }
    await next();
  };
}

/** True when `origin` is this server's own (the scheme aside: a proxy in front may add TLS). */
function sameOrigin(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.host.toLowerCase() === host.toLowerCase()
    );
  } catch {
    return false;
  }
}

function signedIn(c: Parameters<MiddlewareHandler>[0], token: string): boolean {
  const header = c.req.header('authorization');
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (bearer !== undefined) return sameSecret(bearer, token);
  const cookie = getCookie(c, SESSION_COOKIE);
  return cookie !== undefined && sameSecret(cookie, cookieValue(token));
}
