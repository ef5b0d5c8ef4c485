import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The token a server off loopback asks for, and whether this start made it (it is printed only then). */
export interface ServerToken {
  readonly token: string;
  readonly file: string;
  readonly created: boolean;
}

/**
 * Where the token is kept: beside a SQLite database (`<db>.token`); for a database that is not a file
 * (a `postgres://` URL), in the user's own toolseam folder.
 */
export function tokenFile(dbPath: string, home: string = homedir()): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(dbPath)) return `${dbPath}.token`;
  return join(home, '.config', 'toolseam', 'serve.token');
}

/**
 * The token kept in `tokenFile` (mode 0600): made on first start, read after. A file anyone else can
 * read is narrowed to its owner first.
 */
export function serverToken(dbPath: string): ServerToken {
  const file = tokenFile(dbPath);
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 32) return { token, file, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const token = randomBytes(32).toString('base64url');
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, file, created: true };
}

/** The session cookie's value for a token: derived, so the cookie never holds the token itself. */
export function cookieValue(token: string): string {
  return createHmac('sha256', token).update('toolseam session cookie').digest('base64url');
}

/** Compares two secrets in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
