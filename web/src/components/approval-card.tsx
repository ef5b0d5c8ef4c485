import { useState } from 'preact/hooks';
import { alwaysLines } from '../always-lines.js';
import { ApiError, api } from '../api.js';
import type { Approval, ApprovalAnswer } from '../api-types.js';
import { failureText } from '../failure-text.js';
import { visibleJson, visibleText } from '../visible-text.js';
import { ErrorLine } from './error-line.js';

/**
 * A call waiting for a person: the tool, its arguments and what approving means; approve once, always
 * (with what "always" would cover), or deny with a reason the model is told. `onGone` runs once the
 * approval is answered, here or anywhere else.
 */
export function ApprovalCard({ approval, onGone }: { approval: Approval; onGone: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const titleId = `approval-${approval.id}`;
  const tool = visibleText(approval.tool);

  const answer = async (body: ApprovalAnswer) => {
    setBusy(true);
    setError(undefined);
    try {
      await api.answer(approval.id, approval.digest ? { ...body, digest: approval.digest } : body);
      onGone();
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'approval_answered' || err.code === 'unknown_approval'))
        onGone();
      else setError(failureText(err));
    } finally {
      setBusy(false);
    }
  };
  const deny = (e: Event) => {
    e.preventDefault();
    const why = reason.trim();
    void answer(why === '' ? { decision: 'deny' } : { decision: 'deny', reason: why });
  };
  const always = alwaysLines(approval);
  return (
    <article class="approval" aria-labelledby={titleId}>
      <h2 id={titleId}>
        Run <span class="tool-name">{tool}</span>?
      </h2>
      {approval.leafTitle && <p class="quiet">Asked by the subagent “{visibleText(approval.leafTitle)}”.</p>}
      <p class="meaning">{visibleText(approval.meaning)}</p>
      <p class="quiet">
        Risk: {visibleText(approval.risk)}
        {approval.expiresAt
          ? ` · unanswered, it is declined at ${new Date(approval.expiresAt).toLocaleTimeString()}`
          : ''}
      </p>
      {approval.notice && <p class="notice info">{visibleText(approval.notice)}</p>}
      <p class="quiet">Arguments</p>
      <pre class="arguments">{visibleJson(approval.arguments)}</pre>
      <div class="actions">
        <button type="button" class="primary" disabled={busy} onClick={() => answer({ decision: 'approve' })}>
          Approve once
        </button>
      </div>
      {always && (
        <ul class="always">
          <li>
            <button
              type="button"
              disabled={busy}
              aria-describedby={`${titleId}-session`}
              onClick={() => answer({ decision: 'approve', always: 'session' })}
            >
              Always in this session
            </button>
            <span id={`${titleId}-session`} class="quiet">
              {visibleText(always.session)}
            </span>
          </li>
          <li>
            <button
              type="button"
              disabled={busy}
              aria-describedby={`${titleId}-forever`}
              onClick={() => answer({ decision: 'approve', always: 'forever' })}
            >
              Always, every session
            </button>
            <span id={`${titleId}-forever`} class="quiet">
              {visibleText(always.forever)}
            </span>
          </li>
        </ul>
      )}
      <form class="deny" onSubmit={deny}>
        <label for={`${titleId}-reason`}>Reason for denying (the model is told)</label>
        <input
          id={`${titleId}-reason`}
          value={reason}
          onInput={(e) => setReason(e.currentTarget.value)}
          placeholder="Optional"
        />
        <button type="submit" class="danger" disabled={busy}>
          Deny
        </button>
      </form>
      <ErrorLine error={error} />
    </article>
  );
}
