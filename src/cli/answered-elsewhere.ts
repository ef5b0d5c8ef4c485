import { hostname } from 'node:os';
import type { ApprovalDecision } from '../core/approval.js';
import { type ApprovalRecord, FINAL_TURN_STATES } from '../core/session-records.js';
import type { SessionStore } from '../core/session-store.js';
import { ownerAlive, processOwner } from '../runtime/resume/turn-owner.js';
import { visible } from './visible-text.js';

/** Who a `toolseam approve` answers as: the command and its process, so a later one can tell it is still running. */
export function approveCommandAnswerer(): string {
  return `toolseam approve:${processOwner()}`;
}

/** The process of an answer given by `toolseam approve`, when that is who gave it. */
function answeringProcess(
  answeredBy: string | undefined,
): { readonly host: string; readonly pid: number } | undefined {
  const found = /^toolseam approve:(.*):(\d+)$/.exec(answeredBy ?? '');
  return found ? { host: found[1] as string, pid: Number(found[2]) } : undefined;
}

function whoAnswered(answeredBy: string | undefined): string {
  if (answeredBy === undefined) return '';
  const process = answeringProcess(answeredBy);
  if (process) {
    const where = process.host === hostname() ? '' : ` on ${visible(process.host)}`;
    return ` by another \`toolseam approve\` (process ${process.pid}${where})`;
  }
  if (answeredBy === 'terminal') return ' at the chat that asked it';
  return ` by ${visible(answeredBy)}`;
}

/** How an answered approval ended, in words: "approved (always, in this session) by … at …". */
function howItEnded(approval: ApprovalRecord): string {
  const reach =
    approval.scope === 'session'
      ? ' (always, in this session)'
      : approval.scope === 'forever'
        ? ' (always)'
        : '';
  const at = approval.answeredAt === undefined ? '' : ` at ${approval.answeredAt}`;
  return `${approval.status}${reach}${whoAnswered(approval.answeredBy)}${at}`;
}

/** True when this answer says what the recorded one says, so nothing the person wanted was lost. */
function sameAnswer(decision: ApprovalDecision, approval: ApprovalRecord): boolean {
  if (decision.kind === 'deny') return approval.status === 'denied';
  const scope = decision.always ?? 'once';
  return approval.status === 'approved' && approval.scope === scope;
}

/**
 * What `toolseam approve` says when another answer got there first: which answer won (and who gave it),
 * and what is happening to the turn now — going on in a process that is running, ended, or left for
 * `toolseam resume` only when no process is driving it. `same` is true when the winning answer is this one.
 */
export async function answeredElsewhere(
  store: SessionStore,
  approvalId: string,
  decision: ApprovalDecision,
): Promise<{ readonly message: string; readonly same: boolean }> {
  const approval = await store.getApproval(approvalId);
  if (approval === undefined) return { message: `approval ${approvalId} no longer exists.`, same: false };
  const same = sameAnswer(decision, approval);
  const shown = visible(approvalId);
  let first: string;
  if (approval.status === 'expired') {
    first = `Approval ${shown} expired before it was answered, so its call does not run.`;
  } else if (approval.status === 'cancelled') {
    const why = approval.reason === undefined ? '' : ` (${visible(approval.reason)})`;
    first = `Approval ${shown} was cancelled${why} before it was answered, so its call does not run.`;
  } else if (same) {
    first = `approval ${shown} was already ${howItEnded(approval)}: the same answer, so nothing more was recorded.`;
  } else {
    first = `approval ${shown} was already ${howItEnded(approval)}, before this answer, which was not recorded.`;
  }
  const turn = await store.getTurn(approval.turnId);
  if (turn === undefined || FINAL_TURN_STATES.includes(turn.status)) {
    return { message: `${first} Its turn has ended (${turn?.status ?? 'gone'}).`, same };
  }
  if (ownerAlive(turn)) {
    return {
      message: `${first} The turn goes on in the process running it (${visible(turn.owner ?? '')}).`,
      same,
    };
  }
  const answerer = answeringProcess(approval.answeredBy);
  if (answerer && ownerAlive({ owner: `${answerer.host}:${answerer.pid}` })) {
    const taking = `${first} That process resumes the turn (process ${answerer.pid}); its output shows there.`;
    return { message: taking, same };
  }
  return {
    message: `${first} No process is running its turn: \`toolseam resume ${visible(turn.id)}\` lets the model go on.`,
    same,
  };
}
