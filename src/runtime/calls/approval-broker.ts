import type { ApprovalDecision } from '../../core/approval.js';
import { ToolseamError } from '../../core/errors.js';
import type { ApprovalRecord, SessionStore } from '../../core/session-store.js';
import { type Signals, signalTopics } from '../../core/signals.js';
import { StoreBusyError } from '../../core/store-errors.js';

/**
 * Thrown out of a wait that parks its turn (hosted mode): the question stays pending in the store, the
 * process lets the turn go, and the answer puts its continuation on the job queue.
 */
export class TurnParked extends ToolseamError {
  constructor(readonly approvalId: string) {
    super('turn_parked', `The turn waits for approval ${approvalId}; it is parked until the answer comes.`);
  }
}

/** How a wait for an answer ended. */
export type ApprovalOutcome =
  | { readonly kind: 'approved'; readonly record: ApprovalRecord }
  | { readonly kind: 'denied'; readonly record: ApprovalRecord }
  | { readonly kind: 'expired' }
  | { readonly kind: 'cancelled' };

/**
 * Waits for answers to approval requests. An answer may arrive in this process (`respond`) or be
 * written to the store by another one (another `serve` behind the same load balancer, `toolseam
 * approve` in a second terminal). Whoever answers through a broker publishes the approval's signal,
 * which wakes the waiter wherever the signals reach; a waiting turn also reads the store every
 * `pollMs`, for an answer whose signal did not reach it. A wait ends as expired after its timeout and
 * as cancelled when its turn stops.
 */
export class ApprovalBroker {
  constructor(
    private readonly store: SessionStore,
    private readonly signals: Signals,
    private readonly pollMs: number,
    /** Waits park their turn instead of holding it (hosted workers): see `TurnParked`. */
    private readonly parks = false,
  ) {}

  /** Answers a pending approval (bound to `digest` when given) and wakes whoever waits on it here. */
  async respond(
    id: string,
    decision: ApprovalDecision,
    options: { digest?: string; answeredBy?: string } = {},
  ): Promise<ApprovalRecord> {
    const record = await this.store.answerApproval(id, decision, options);
    await this.signals.publish(signalTopics.approval(id), record.status);
    return record;
  }

  /**
   * Waits until approval `id` is answered, expires after `timeoutMs`, or `signal` aborts. Rejects
   * when the store fails (other than being busy for a moment, which the next poll retries): these
   * run on timers, where a throw would take the process down.
   */
  wait(id: string, timeoutMs: number, signal: AbortSignal, parkable = false): Promise<ApprovalOutcome> {
    if (this.parks && parkable && timeoutMs > 0 && !signal.aborted) return this.park(id);
    return new Promise((resolve, reject) => {
      let done = false;
      const settle = (end: () => void): void => {
        if (done) return;
        done = true;
        clearInterval(poller);
        clearTimeout(timer);
        clearTimeout(retry);
        signal.removeEventListener('abort', onAbort);
        unsubscribe();
        end();
      };
      const finish = (outcome: ApprovalOutcome): void => settle(() => resolve(outcome));
      const fail = (error: unknown): void => settle(() => reject(error));
      // Reads may overlap (a poll, a wake): an answer is final, so whichever read sees it first settles
      // the wait and a slower read that still saw `pending` changes nothing.
      const read = async (): Promise<void> => {
        let record: ApprovalRecord | undefined;
        try {
          record = await this.store.getApproval(id);
        } catch (error) {
          if (!(error instanceof StoreBusyError)) fail(error);
          return;
        }
        if (!record || record.status === 'pending') return;
        if (record.status === 'approved') finish({ kind: 'approved', record });
        else if (record.status === 'denied') finish({ kind: 'denied', record });
        else finish({ kind: record.status });
      };
      const check = (): void => void read();
      let retry: ReturnType<typeof setTimeout> | undefined;
      const close = async (status: 'expired' | 'cancelled', reason: string): Promise<void> => {
        retry = undefined;
        try {
          // Closing loses to an answer that just landed: re-read and honour the answer then.
          if (await this.store.closeApproval(id, status, reason)) finish({ kind: status });
          else await read();
        } catch (error) {
          // Another process holds the write lock for a while: close once it lets go, as polling does.
          if (error instanceof StoreBusyError && !done)
            retry = setTimeout(() => void close(status, reason), this.pollMs);
          else fail(error);
        }
      };
      const onAbort = (): void => void close('cancelled', 'the turn was stopped');
      const unsubscribe = this.signals.subscribe(signalTopics.approval(id), check);
      const poller = setInterval(check, this.pollMs);
      const timer = setTimeout(() => void close('expired', 'no one answered in time'), timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
      else check();
    });
  }

  /** An answer already in the store is acted on here; otherwise the turn is parked. */
  private async park(id: string): Promise<ApprovalOutcome> {
    const record = await this.store.getApproval(id);
    if (record?.status === 'approved') return { kind: 'approved', record };
    if (record?.status === 'denied') return { kind: 'denied', record };
    if (record && record.status !== 'pending') return { kind: record.status };
    throw new TurnParked(id);
  }
}
