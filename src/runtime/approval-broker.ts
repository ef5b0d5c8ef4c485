import type { ApprovalDecision } from '../core/approval.js';
import type { ApprovalRecord, SessionStore } from '../core/session-store.js';

/** How a wait for an answer ended. */
export type ApprovalOutcome =
  | { readonly kind: 'approved'; readonly record: ApprovalRecord }
  | { readonly kind: 'denied'; readonly record: ApprovalRecord }
  | { readonly kind: 'expired' }
  | { readonly kind: 'cancelled' };

/**
 * Waits for answers to approval requests. An answer may arrive in this process (`respond`) or be
 * written to the store by another one (`toolseam approve` in a second terminal), so a waiting turn
 * also polls the store. A wait ends as expired after its timeout and as cancelled when its turn stops.
 */
export class ApprovalBroker {
  private readonly wakers = new Map<string, Set<() => void>>();

  constructor(
    private readonly store: SessionStore,
    private readonly pollMs: number,
  ) {}

  /** Answers a pending approval (bound to `digest` when given) and wakes whoever waits on it here. */
  respond(
    id: string,
    decision: ApprovalDecision,
    options: { digest?: string; answeredBy?: string } = {},
  ): ApprovalRecord {
    const record = this.store.answerApproval(id, decision, options);
    this.wake(id);
    return record;
  }

  /** Waits until approval `id` is answered, expires after `timeoutMs`, or `signal` aborts. */
  wait(id: string, timeoutMs: number, signal: AbortSignal): Promise<ApprovalOutcome> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (outcome: ApprovalOutcome): void => {
        if (done) return;
        done = true;
        clearInterval(poller);
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.wakers.get(id)?.delete(check);
        resolve(outcome);
      };
      const check = (): void => {
        const record = this.store.getApproval(id);
        if (!record || record.status === 'pending') return;
        if (record.status === 'approved') finish({ kind: 'approved', record });
        else if (record.status === 'denied') finish({ kind: 'denied', record });
        else finish({ kind: record.status });
      };
      const close = (status: 'expired' | 'cancelled', reason: string): void => {
        // Closing loses to an answer that just landed: re-read and honour the answer then.
        if (this.store.closeApproval(id, status, reason)) finish({ kind: status });
        else check();
      };
      const onAbort = (): void => close('cancelled', 'the turn was stopped');
      const poller = setInterval(check, this.pollMs);
      const timer = setTimeout(() => close('expired', 'no one answered in time'), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      const set = this.wakers.get(id) ?? new Set<() => void>();
      this.wakers.set(id, set);
      set.add(check);
      if (signal.aborted) onAbort();
      else check();
    });
  }

  private wake(id: string): void {
    for (const check of this.wakers.get(id) ?? []) check();
  }
}
