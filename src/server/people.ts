import type { SessionStore, UserRecord } from '../core/session-store.js';
import { claimMatches, type UserClaim } from './user-tokens.js';

/** Who a request comes from: the host's owner, or one of the users the host serves. */
export type Caller = { readonly kind: 'owner' } | { readonly kind: 'user'; readonly user: UserRecord };

/** The owner, for requests that need no token (loopback, no users). */
export const OWNER: Caller = { kind: 'owner' };

/** How long the answer to "does this host have users?" is reused (a store read per tokenless request otherwise). */
const ANY_USERS_MS = 2_000;

/**
 * The users a server lets in, read from the store: a user's token is checked against their stored hash
 * on each request (so a revoked token stops at once, in every process), and whether the host has any
 * users at all is read at most every 2 s.
 */
export class People {
  private anyUsers: { value: boolean; at: number } | undefined;

  constructor(private readonly store: SessionStore) {}

  /** The user a claim proves, when they exist, are not revoked and the proof matches. */
  async verify(claim: UserClaim): Promise<UserRecord | undefined> {
    const user = await this.store.getUser(claim.userId);
    if (!user || user.id !== claim.userId || user.revokedAt !== undefined) return undefined;
    return claimMatches(claim, user.tokenHash) ? user : undefined;
  }

  /** Forgets what was read of the users (one was just added here). */
  changed(): void {
    this.anyUsers = undefined;
  }

  /** True once any user was added (revoked ones count: the host stays a host). */
  async hostHasUsers(): Promise<boolean> {
    const now = Date.now();
    if (this.anyUsers && now - this.anyUsers.at < ANY_USERS_MS) return this.anyUsers.value;
    const value = (await this.store.listUsers()).length > 0;
    this.anyUsers = { value, at: now };
    return value;
  }
}

/** The user id sessions of `caller` carry: theirs, or null for the owner's. */
export function ownerIdOf(caller: Caller): string | null {
  return caller.kind === 'user' ? caller.user.id : null;
}

/** True when a session (by its `userId`) belongs to `caller`. */
export function belongsTo(caller: Caller, sessionUserId: string | undefined): boolean {
  return (sessionUserId ?? null) === ownerIdOf(caller);
}

/** Who answered, for the approval's record and the audit trail. */
export function answeredByOf(caller: Caller): string {
  return caller.kind === 'user' ? `http:${caller.user.name}` : 'http';
}

/** A user as the API and the CLI show them: never their token or its hash. */
export function userShape(user: UserRecord) {
  return { id: user.id, name: user.name, createdAt: user.createdAt, revokedAt: user.revokedAt ?? null };
}
