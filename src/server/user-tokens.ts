import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A user's token starts with this: `tsu.<user id>.<secret>`. */
const TOKEN_PREFIX = 'tsu';
/** A user's session cookie: `tsc.<user id>.<proof>`, the proof derived from the token's secret. */
const COOKIE_PREFIX = 'tsc';

// Crockford's base32, as the store's ids: no i, l, o or u to misread.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A new user's token, shown once, and what the store keeps of it. */
export interface IssuedUserToken {
  /** The user id the token names (the store's row takes it). */
  readonly userId: string;
  readonly token: string;
  /** What the store keeps: a SHA-256 of a proof derived from the token; neither leads back to it. */
  readonly tokenHash: string;
}

/** What a presented token or cookie claims: a user id and the proof to check against the stored hash. */
export interface UserClaim {
  readonly userId: string;
  readonly proof: string;
}

/** Makes a user id and their token (32 random bytes). */
export function issueUserToken(): IssuedUserToken {
  let id = 'u-';
  for (const byte of randomBytes(10)) id += ALPHABET[byte & 31];
  const secret = randomBytes(32).toString('base64url');
  return { userId: id, token: `${TOKEN_PREFIX}.${id}.${secret}`, tokenHash: hashOf(proofOf(secret)) };
}

/** The claim a bearer token makes, when it has a user token's form. */
export function userTokenClaim(token: string): UserClaim | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== TOKEN_PREFIX || !parts[1] || !parts[2]) return undefined;
  return { userId: parts[1], proof: proofOf(parts[2]) };
}

/** The claim a session cookie makes, when it has a user cookie's form. */
export function userCookieClaim(cookie: string): UserClaim | undefined {
  const parts = cookie.split('.');
  if (parts.length !== 3 || parts[0] !== COOKIE_PREFIX || !parts[1] || !parts[2]) return undefined;
  return { userId: parts[1], proof: parts[2] };
}

/** The session cookie for a user's claim: it carries the proof, never the token. */
export function userCookie(claim: UserClaim): string {
  return `${COOKIE_PREFIX}.${claim.userId}.${claim.proof}`;
}

/** True when `claim`'s proof hashes to `tokenHash`, compared in constant time. */
export function claimMatches(claim: UserClaim, tokenHash: string): boolean {
  const given = Buffer.from(hashOf(claim.proof), 'hex');
  const kept = Buffer.from(tokenHash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}

function proofOf(secret: string): string {
  return createHmac('sha256', secret).update('toolseam user session').digest('base64url');
}

function hashOf(proof: string): string {
  return createHash('sha256').update(proof).digest('hex');
}
