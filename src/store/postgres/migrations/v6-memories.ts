import type { Migration } from '../../migrate.js';

/** Memories, searched by word: `search` is the text and tags folded (lower case, no accents) by the
 * store, and `words` its word vector, kept by Postgres itself. */
export const v6Memories: Migration = {
  version: 6,
  name: 'memories',
  sql: `
    CREATE TABLE memories (
      n BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      text TEXT NOT NULL UNIQUE,
      tags TEXT NOT NULL DEFAULT '[]',
      session_id TEXT REFERENCES sessions (id) ON DELETE SET NULL,
      search TEXT NOT NULL DEFAULT '',
      words TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, search)) STORED,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    );
    CREATE INDEX memories_by_update ON memories (updated_at);
    CREATE INDEX memories_words ON memories USING gin (words);
  `,
};
