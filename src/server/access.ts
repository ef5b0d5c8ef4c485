import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { ApiError } from './api-error.js';
import { type Caller, OWNER, type People } from './people.js';
import { cookieValue, sameSecret } from './server-token.js';
import { type UserClaim, userCookieClaim, userTokenClaim } from './user-tokens.js';

/** The session cookie the page gets from `POST /api/sign-in`. */
export const SESSION_COOKIE = 'toolseam_session';

/**
 * Who may come in: on loopback, requests for the server's own names; elsewhere, holders of a token. The
 * owner's token is the one in `<db>.token`; each user has their own (`toolseam users add`). Once the
 * host has users, a request needs a token on loopback too (a proxy on the same machine would otherwise
 * let anyone in as the owner).
 */
export interface Access {
  /** Bound to a loopback address: the Host header must name this server. */
  readonly loopback: boolean;
  /** The `Host` values this server answers on loopback (set once it listens: they carry its port). */
  hosts: ReadonlySet<string>;
  /** Off loopback: the owner's token. */
  readonly token?: string;
  /** On loopback, the owner's token once the host has users (read or made on first need). */
  readonly loopbackToken?: () => string;
  /** The users, read from the store. */
  readonly people: People;
}

const callers = new WeakMap<Request, Caller>();

/** Who sent the request (set by `accessGuard`; the owner for paths that need no token). */
export function callerOf(c: Context): Caller {
  return callers.get(c.req.raw) ?? OWNER;
}

/** The owner's token this server checks now: off loopback always, on loopback once it has users. */
export async function ownerToken(access: Access): Promise<string | undefined> {
  if (access.token !== undefined) return access.token;
  if (access.loopbackToken && (await access.people.hostHasUsers())) return access.loopbackToken();
  return undefined;
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
    if (path.startsWith('/api/') && !OPEN.has(path)) {
      const caller = await callerFrom(c, access);
      if (!caller) {
        throw new ApiError(
          401,
          'unauthorized',
          'This server needs a token: send "Authorization: Bearer TOKEN", or sign in with POST /api/sign-in. ' +
            "A user's token comes from `toolseam users add NAME`; the owner's is in the file beside the database ending in .token.",
        );
      }
      callers.set(c.req.raw, caller);
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

/**
 * Who the request's credentials prove: a user (their token or cookie), the owner (the owner's token or
 * cookie), the owner without any (loopback, no users), or nobody (undefined: refused).
 */
async function callerFrom(c: Context, access: Access): Promise<Caller | undefined> {
  const header = c.req.header('authorization');
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const cookie = getCookie(c, SESSION_COOKIE);
  const claim: UserClaim | undefined =
    bearer !== undefined
      ? userTokenClaim(bearer)
      : cookie !== undefined
        ? userCookieClaim(cookie)
        : undefined;
  if (claim) {
    const user = await access.people.verify(claim);
    return user ? { kind: 'user', user } : undefined;
  }
  const token = await ownerToken(access);
  if (token === undefined) return OWNER;
  if (bearer !== undefined) return sameSecret(bearer, token) ? OWNER : undefined;
  return cookie !== undefined && sameSecret(cookie, cookieValue(token)) ? OWNER : undefined;
}
