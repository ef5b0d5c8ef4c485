import type { Context } from 'hono';
import type { SessionRecord } from '../core/session-store.js';
import { callerOf } from './access.js';
import { ApiError } from './api-error.js';
import { belongsTo } from './people.js';
import type { ServerDeps } from './server-deps.js';

/** True when session `id` exists and belongs to the request's caller. */
export async function ownsSession(c: Context, deps: ServerDeps, id: string): Promise<boolean> {
  const record = await deps.runtime.options.store.getSession(id);
  return record !== undefined && belongsTo(callerOf(c), record.userId);
}

/**
 * The session the path names, when it belongs to the caller; another person's is answered exactly as
 * one that does not exist (404, not 403), so a session id never tells anyone it is there.
 */
export async function ownedSession(c: Context, deps: ServerDeps, id: string): Promise<SessionRecord> {
  const record = await deps.runtime.options.store.getSession(id);
  if (!record || !belongsTo(callerOf(c), record.userId)) {
    throw new ApiError(404, 'unknown_session', `There is no session ${id}; GET /api/sessions lists them.`, {
      sessionId: id,
    });
  }
  return record;
}

/** Refuses what only the host's owner may do (switching tools for everyone, managing users). */
export function ownerOnly(c: Context, what: string): void {
  if (callerOf(c).kind === 'owner') return;
  throw new ApiError(403, 'owner_only', `Only the host's owner may ${what}.`);
}
