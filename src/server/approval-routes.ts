import type { Hono } from 'hono';
import type { ApprovalDecision } from '../core/approval.js';
import { ApprovalClosedError } from '../core/store-errors.js';
import { callerOf } from './access.js';
import { ApiError } from './api-error.js';
import { approvalShape } from './api-shapes.js';
import { choiceField, jsonBody, stringField } from './json-body.js';
import { answeredByOf, ownerIdOf } from './people.js';
import type { ServerDeps } from './server-deps.js';
import { ownerOnly, ownsSession } from './session-owner.js';

/** The approval routes: the pending list and answering one. */
export function approvalRoutes(app: Hono, deps: ServerDeps): void {
  const { runtime } = deps;
  const store = runtime.options.store;

  app.get('/api/approvals', async (c) => {
    const sessionId = c.req.query('sessionId');
    const pending = await store.listApprovals({
      status: 'pending',
      userId: ownerIdOf(callerOf(c)),
      ...(sessionId !== undefined && sessionId !== '' ? { sessionId } : {}),
    });
    return c.json({ approvals: pending.map(approvalShape) });
  });

  app.post('/api/approvals/:id', async (c) => {
    const id = c.req.param('id');
    const body = await jsonBody(c);
    const decision = decisionOf(body);
    const digest = stringField(body, 'digest', false);
    const approval = await store.getApproval(id);
    // Another person's approval is answered as one that does not exist: ids do not leak.
    if (!approval || !(await ownsSession(c, deps, approval.sessionId))) {
      throw new ApiError(
        404,
        'unknown_approval',
        `There is no approval ${id}; GET /api/approvals lists those waiting.`,
        {
          approvalId: id,
        },
      );
    }
    if (approval.status !== 'pending') throw answered(id, approval.status);
    // A standing grant for every session reaches every person's sessions: the owner's to give.
    if (decision.kind === 'approve' && decision.always === 'forever') {
      ownerOnly(
        c,
        'approve "always: forever" (it covers every session on the host); answer with "always": "session"',
      );
    }
    try {
      const record = await runtime.respond(id, decision, {
        answeredBy: answeredByOf(callerOf(c)),
        ...(digest !== undefined ? { digest } : {}),
      });
      return c.json(approvalShape(record));
    } catch (error) {
      // Answered elsewhere (the CLI, another tab) between the read and the answer.
      if (error instanceof ApprovalClosedError) throw answered(id, error.status);
      throw error;
    }
  });
}

/** The decision a body gives: approve (maybe always, with its reach) or deny (maybe with a reason). */
function decisionOf(body: Record<string, unknown>): ApprovalDecision {
  const kind = choiceField(body, 'decision', ['approve', 'deny'] as const, true);
  if (kind === 'approve') {
    const always = choiceField(body, 'always', ['session', 'forever'] as const);
    return always ? { kind: 'approve', always } : { kind: 'approve' };
  }
  const reason = stringField(body, 'reason', false);
  return reason !== undefined && reason.trim() !== '' ? { kind: 'deny', reason } : { kind: 'deny' };
}

function answered(id: string, status: string): ApiError {
  return new ApiError(
    409,
    'approval_answered',
    `Approval ${id} is already ${status}; only a pending approval can be answered.`,
    {
      approvalId: id,
      status,
    },
  );
}
