import type { Migration } from '../migrate.js';

/** Memories with a full-text index over their text and tags, kept in step by triggers. */
export const v6Memories: Migration = {
  version: 6,
  name: 'memories',
  sql: `
    CREATE TABLE memories (
      n INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      text TEXT NOT NULL UNIQUE,
      tags TEXT NOT NULL DEFAULT '[]',
      session_id TEXT REFERENCES sessions (id) ON DELETE SET NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX memories_by_update ON memories (updated_at);

    CREATE VIRTUAL TABLE memories_fts USING fts5 (
      text, tags, content = 'memories', content_rowid = 'n', tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
      INSERT INTO memories_fts (rowid, text, tags) VALUES (new.n, new.text, new.tags);
    END;
    CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
      INSERT INTO memories_fts (memories_fts, rowid, text, tags) VALUES ('delete', old.n, old.text, old.tags);
    END;
    CREATE TRIGGER memories_fts_update AFTER UPDATE ON memories BEGIN
      INSERT INTO memories_fts (memories_fts, rowid, text, tags) VALUES ('delete', old.n, old.text, old.tags);
      INSERT INTO memories_fts (rowid, text, tags) VALUES (new.n, new.text, new.tags);
    END;
  `,
};
