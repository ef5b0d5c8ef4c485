import type { Migration } from '../../migrate.js';

/** Notifications written before they are sent; a claim with a lease keeps two processes off one. */
export const v20NotifyOutbox: Migration = {
  version: 20,
  name: 'notify outbox',
  sql: `
    CREATE TABLE outbox (
      id TEXT PRIMARY KEY,
      channel TEXT NOT NULL,
      service TEXT NOT NULL,
      payload TEXT NOT NULL,
      idempotency_key TEXT,
      origin TEXT,
      status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'refused', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at BIGINT NOT NULL,
      claimed_by TEXT,
      claimed_until BIGINT,
      last_error TEXT,
      receipt TEXT,
      created_at BIGINT NOT NULL,
      sent_at BIGINT
    );
    CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
  `,
};
