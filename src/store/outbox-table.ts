import { InputError } from '../core/errors.js';
import type {
  NewOutboxMessage,
  OutboxClaim,
  OutboxOutcome,
  OutboxRecord,
  OutboxStatus,
} from '../core/outbox-records.js';
import {
  fromJson,
  iso,
  limitBy,
  opt,
  optIso,
  requireObject,
  requireOneOf,
  requireText,
  textOrNull,
} from './rows.js';
import type { StoreContext } from './store-context.js';

export interface OutboxRow {
  id: string;
  channel: string;
  service: string;
  payload: string;
  idempotency_key: string | null;
  origin: string | null;
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: number;
  claimed_by: string | null;
  claimed_until: number | null;
  last_error: string | null;
  receipt: string | null;
  created_at: number;
  sent_at: number | null;
}

export const STATUSES: readonly OutboxStatus[] = ['pending', 'sent', 'refused', 'failed'];

export function toRecord(row: OutboxRow): OutboxRecord {
  return {
    id: row.id,
    channel: row.channel,
    service: row.service,
    payload: fromJson(row.payload),
    idempotencyKey: opt(row.idempotency_key),
    origin: opt(row.origin),
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: iso(row.next_attempt_at),
    claimedBy: opt(row.claimed_by),
    claimedUntil: optIso(row.claimed_until),
    lastError: opt(row.last_error),
    receipt: opt(row.receipt),
    createdAt: iso(row.created_at),
    sentAt: optIso(row.sent_at),
  };
}

export function leaseOf(ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < 1) {
    throw new InputError(`An outbox lease is a whole number of milliseconds above 0, got ${ms}.`);
  }
}

/** A new message's fields as the insert binds them, each checked; claimed by its writer when `claimed` says so. */
export function outboxRow(
  input: NewOutboxMessage,
  claimed: Pick<OutboxClaim, 'owner' | 'leaseMs'> | undefined,
  now: number,
  id: string,
) {
  const owner = claimed === undefined ? null : requireText(claimed.owner, 'Who claims outbox messages');
  if (claimed !== undefined) leaseOf(claimed.leaseMs);
  return {
    id,
    channel: requireText(input?.channel, 'The channel a notification goes to'),
    service: requireText(input.service, 'The service a notification goes through'),
    payload: JSON.stringify(requireObject(input.payload, 'A notification payload')),
    key: textOrNull(input.idempotencyKey, 'An idempotency key'),
    origin: textOrNull(input.origin, 'Where a notification came from'),
    now,
    owner,
    until: claimed === undefined ? null : now + claimed.leaseMs,
    attempts: claimed === undefined ? 0 : 1,
  };
}

/** The outbox table: notifications written before they are sent, claimed by one process per attempt. */
export function outboxTable(ctx: StoreContext) {
  const { db } = ctx;
  const insert = db.prepare(
    `INSERT INTO outbox (id, channel, service, payload, idempotency_key, origin, status, attempts,
       next_attempt_at, claimed_by, claimed_until, created_at)
     VALUES (@id, @channel, @service, @payload, @key, @origin, 'pending', @attempts, @now, @owner, @until, @now)`,
  );
  const one = db.prepare('SELECT * FROM outbox WHERE id = ?');
  // One statement: the due rows are chosen and claimed under the write lock, so no two processes share one.
  const claim = db.prepare(
    `UPDATE outbox SET claimed_by = @owner, claimed_until = @until, attempts = attempts + 1
     WHERE id IN (
       SELECT id FROM outbox
       WHERE status = 'pending' AND next_attempt_at <= @now
         AND (claimed_until IS NULL OR claimed_until <= @now) AND (@id IS NULL OR id = @id)
         AND (@channels IS NULL OR instr(@channels, char(10) || channel || char(10)) > 0)
       ORDER BY next_attempt_at, created_at ${limitBy('@limit')})
     RETURNING *`,
  );
  const settle = db.prepare(
    `UPDATE outbox SET status = @status, next_attempt_at = @next, last_error = @error, receipt = @receipt,
       sent_at = @sent, claimed_by = NULL, claimed_until = NULL
     WHERE id = @id AND claimed_by = @owner AND status = 'pending'`,
  );
  const all = db.prepare(
    'SELECT * FROM outbox WHERE (@status IS NULL OR status = @status) ORDER BY created_at, id',
  );

  return {
    enqueue(input: NewOutboxMessage, claimed?: Pick<OutboxClaim, 'owner' | 'leaseMs'>): OutboxRecord {
      const row = outboxRow(input, claimed, ctx.now(), ctx.newId('nt'));
      return ctx.write(() => {
        insert.run(row);
        return toRecord(one.get(row.id) as OutboxRow);
      });
    },
    claim(input: OutboxClaim): OutboxRecord[] {
      const owner = requireText(input?.owner, 'Who claims outbox messages');
      leaseOf(input.leaseMs);
      const limit = input.limit ?? 10;
      if (!Number.isSafeInteger(limit) || limit < 1) {
        throw new InputError(`An outbox claim takes at least 1 message, got ${limit}.`);
      }
      const now = ctx.now();
      const id = textOrNull(input.id, 'The outbox message to claim');
      // One line per channel name: a name holds no line break, so one never matches part of another.
      const channels = input.channels === undefined ? null : `\n${input.channels.join('\n')}\n`;
      return ctx.write(() =>
        (claim.all({ owner, until: now + input.leaseMs, now, id, channels, limit }) as OutboxRow[]).map(
          toRecord,
        ),
      );
    },
    settle(id: string, owner: string, outcome: OutboxOutcome): boolean {
      const status = requireOneOf(outcome?.status, STATUSES, 'An outbox outcome');
      const now = ctx.now();
      const retryAt = outcome.status === 'pending' ? outcome.retryAt : now;
      if (!Number.isSafeInteger(retryAt)) {
        throw new InputError(`A retry time is epoch milliseconds, got ${String(retryAt)}.`);
      }
      return ctx.write(
        () =>
          settle.run({
            id,
            owner,
            status,
            next: retryAt,
            error: outcome.status === 'sent' ? null : outcome.error,
            receipt: outcome.status === 'sent' ? (outcome.receipt ?? null) : null,
            sent: outcome.status === 'sent' ? now : null,
          }).changes === 1,
      );
    },
    get(id: string): OutboxRecord | undefined {
      const row = one.get(id) as OutboxRow | undefined;
      return row === undefined ? undefined : toRecord(row);
    },
    list(filter: { readonly status?: OutboxStatus | undefined } = {}): OutboxRecord[] {
      const status =
        filter.status === undefined ? null : requireOneOf(filter.status, STATUSES, 'An outbox status');
      return (all.all({ status }) as OutboxRow[]).map(toRecord);
    },
  };
}

/** The outbox table module's interface. */
export type OutboxTable = ReturnType<typeof outboxTable>;
