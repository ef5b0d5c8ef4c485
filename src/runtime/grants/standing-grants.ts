import type { GrantRecord } from '../../core/session-records.js';
import type { PlannedCall } from '../calls/planned-call.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import { type ScopedCall, scopeCovers } from './grant-scope.js';

/** The call as the grant scopes read it, with the tool as this turn offers it. */
export function scopedCall(env: TurnEnvironment, call: PlannedCall): ScopedCall {
  return {
    tool: call.tool,
    definition: call.target.offered?.definition,
    args: call.args ?? {},
    workspace: env.workspace,
  };
}

/** The sessions whose grants answer here: this one, and for a subagent leaf the session that started it. */
function grantingSessions(env: TurnEnvironment): string[] {
  const parent = env.leaf?.parentSessionId;
  return parent === undefined ? [env.sessionId] : [env.sessionId, parent];
}

/**
 * The standing grant that covers a call, if one does: this session's, every session's, or (for a leaf)
 * its parent session's, each only for the calls its scope covers. Its use is written to the audit trail.
 */
export async function coveringGrant(
  env: TurnEnvironment,
  call: PlannedCall,
): Promise<GrantRecord | undefined> {
  const scoped = scopedCall(env, call);
  const seen = new Set<string>();
  for (const sessionId of grantingSessions(env)) {
    for (const grant of await env.store.listGrants({ sessionId, tool: call.tool })) {
      if (seen.has(grant.id) || grant.scope === undefined) continue;
      seen.add(grant.id);
      if (!(await scopeCovers(grant.scope, scoped))) continue;
      await env.store.audit({
        kind: 'grant.used',
        sessionId: env.sessionId,
        turnId: env.turnId,
        detail: { grantId: grant.id, tool: call.tool, callId: call.id },
      });
      return grant;
    }
  }
  return undefined;
}

/**
 * Why a question about `tool` is asked although the person once answered "always" for it: a grant of an
 * earlier toolseam, which covered every call of the tool, was withdrawn by the upgrade. Said once: the
 * grants it names are marked as told when the question is stored.
 */
export async function withdrawnNotice(
  env: TurnEnvironment,
  tool: string,
): Promise<{ readonly text: string; readonly grants: readonly string[] } | undefined> {
  const withdrawn = new Map<string, GrantRecord>();
  for (const sessionId of grantingSessions(env)) {
    for (const grant of await env.store.listGrants({ sessionId, tool, status: 'revoked' })) {
      if (grant.revokedBy === 'upgrade' && grant.noticedAt === undefined) withdrawn.set(grant.id, grant);
    }
  }
  if (withdrawn.size === 0) return undefined;
  const everywhere = [...withdrawn.values()].some((g) => g.sessionId === undefined);
  const given = everywhere ? 'for every session' : 'for this session';
  const text =
    `asked again: the standing permission for ${tool} that an earlier version of toolseam kept (${given}) ` +
    `let every ${tool} call run unasked, whatever its arguments, so the upgrade withdrew it. ` +
    '"always" now covers only what the line below says.';
  return { text, grants: [...withdrawn.keys()] };
}
