import type { Migration } from '../../migrate.js';

/** The people a host serves, their tokens kept as hashes, and each session's owner (NULL: the host's). */
export const v24Users: Migration = {
  version: 24,
  name: 'users',
  sql: `
    CREATE TABLE users (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      token_hash TEXT NOT NULL UNIQUE,
      created_at BIGINT NOT NULL,
      revoked_at BIGINT
    );
    ALTER TABLE sessions ADD COLUMN user_id TEXT REFERENCES users (id);
    CREATE INDEX sessions_by_user ON sessions (user_id, updated_at);
  `,
};
