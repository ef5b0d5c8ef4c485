import type { Migration } from '../migrate.js';

/**
 * The people a host serves: each user's token is kept only as a one-way hash (the token is shown once,
 * when made), and a user is revoked, never deleted. Every session gets its owner: NULL is the host's
 * owner, which every session stored before this step belongs to.
 */
export const v24Users: Migration = {
  version: 24,
  name: 'users',
  sql: `
    CREATE TABLE users (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      token_hash TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL,
      revoked_at INTEGER
    ) STRICT;
    ALTER TABLE sessions ADD COLUMN user_id TEXT REFERENCES users (id);
    CREATE INDEX sessions_by_user ON sessions (user_id, updated_at);
  `,
};
