import { InputError } from '../../core/errors.js';
import type {
  NewOutboxMessage,
  OutboxClaim,
  OutboxOutcome,
  OutboxRecord,
  OutboxStatus,
} from '../../core/outbox-records.js';
import { leaseOf, type OutboxRow, STATUSES, toRecord } from '../outbox-table.js';
import { requireObject, requireOneOf, requireText, textOrNull } from '../rows.js';
import type { PgContext } from './pg-context.js';

/** The notify outbox on Postgres: due rows are claimed with SKIP LOCKED, so two processes never share one. */
export function pgOutbox(ctx: PgContext) {
  const get = async (id: string): Promise<OutboxRecord | undefined> => {
    const row = await ctx.get<OutboxRow>('SELECT * FROM outbox WHERE id = ?', [id]);
    return row && toRecord(row);
  };
  return {
    getOutbox: get,
    async enqueueOutbox(
      input: NewOutboxMessage,
      claimed?: Pick<OutboxClaim, 'owner' | 'leaseMs'>,
    ): Promise<OutboxRecord> {
      const now = ctx.now();
      const owner = claimed === undefined ? null : requireText(claimed.owner, 'Who claims outbox messages');
      if (claimed !== undefined) leaseOf(claimed.leaseMs);
      const row = await ctx.get<OutboxRow>(
        `INSERT INTO outbox (id, channel, service, payload, idempotency_key, origin, status, attempts,
           next_attempt_at, claimed_by, claimed_until, created_at)
         VALUES (@id, @channel, @service, @payload, @key, @origin, 'pending', @attempts, @now, @owner, @until, @now)
         RETURNING *`,
        {
          id: ctx.newId('nt'),
          channel: requireText(input?.channel, 'The channel a notification goes to'),
          service: requireText(input.service, 'The service a notification goes through'),
          payload: JSON.stringify(requireObject(input.payload, 'A notification payload')),
          key: textOrNull(input.idempotencyKey, 'An idempotency key'),
          origin: textOrNull(input.origin, 'Where a notification came from'),
          now,
          owner,
          until: claimed === undefined ? null : now + claimed.leaseMs,
          attempts: claimed === undefined ? 0 : 1,
        },
      );
      return toRecord(row as OutboxRow);
    },
    claimOutbox(input: OutboxClaim): Promise<OutboxRecord[]> {
      const owner = requireText(input?.owner, 'Who claims outbox messages');
      leaseOf(input.leaseMs);
      const limit = input.limit ?? 10;
      if (!Number.isSafeInteger(limit) || limit < 1) {
        throw new InputError(`An outbox claim takes at least 1 message, got ${limit}.`);
      }
      const now = ctx.now();
      const id = textOrNull(input.id, 'The outbox message to claim');
      const channels = input.channels === undefined ? null : `\n${input.channels.join('\n')}\n`;
      return ctx.write(async () => {
        const rows = await ctx.all<OutboxRow>(
          `UPDATE outbox SET claimed_by = @owner, claimed_until = @until, attempts = attempts + 1
           WHERE id IN (
             SELECT id FROM outbox
             WHERE status = 'pending' AND next_attempt_at <= @now
               AND (claimed_until IS NULL OR claimed_until <= @now) AND (@id::text IS NULL OR id = @id)
               AND (@channels::text IS NULL OR position(E'\\n' || channel || E'\\n' in @channels) > 0)
             ORDER BY next_attempt_at, created_at LIMIT @limit
             FOR UPDATE SKIP LOCKED)
           RETURNING *`,
          { owner, until: now + input.leaseMs, now, id, channels, limit },
        );
        // RETURNING gives no order of its own: the claimed rows as the claim chose them.
        return rows
          .sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.created_at - b.created_at)
          .map(toRecord);
      });
    },
    async settleOutbox(id: string, owner: string, outcome: OutboxOutcome): Promise<boolean> {
      const status = requireOneOf(outcome?.status, STATUSES, 'An outbox outcome');
      const now = ctx.now();
      const retryAt = outcome.status === 'pending' ? outcome.retryAt : now;
      if (!Number.isSafeInteger(retryAt)) {
        throw new InputError(`A retry time is epoch milliseconds, got ${String(retryAt)}.`);
      }
      const n = await ctx.run(
        `UPDATE outbox SET status = @status, next_attempt_at = @next, last_error = @error, receipt = @receipt,
           sent_at = @sent, claimed_by = NULL, claimed_until = NULL
         WHERE id = @id AND claimed_by = @owner AND status = 'pending'`,
        {
          id,
          owner,
          status,
          next: retryAt,
          error: outcome.status === 'sent' ? null : outcome.error,
          receipt: outcome.status === 'sent' ? (outcome.receipt ?? null) : null,
          sent: outcome.status === 'sent' ? now : null,
        },
      );
      return n === 1;
    },
    async listOutbox(filter: { readonly status?: OutboxStatus | undefined } = {}): Promise<OutboxRecord[]> {
      const status =
        filter.status === undefined ? null : requireOneOf(filter.status, STATUSES, 'An outbox status');
      const rows = await ctx.all<OutboxRow>(
        'SELECT * FROM outbox WHERE (@status::text IS NULL OR status = @status) ORDER BY created_at, id',
        { status },
      );
      return rows.map(toRecord);
    },
  };
}
