import type { Migration } from '../migrate.js';

/**
 * The notify outbox: each message is written here before it is sent and settled after, so a process that
 * dies mid-send leaves it `pending` for the next one. A claim (owner and lease) keeps two processes from
 * sending one message at once; a lease that ran out is a dead claim, taken over.
 */
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
      next_attempt_at INTEGER NOT NULL,
      claimed_by TEXT,
      claimed_until INTEGER,
      last_error TEXT,
      receipt TEXT,
      created_at INTEGER NOT NULL,
      sent_at INTEGER
    ) STRICT;
    CREATE INDEX outbox_due ON outbox (status, next_attempt_at);
  `,
};
