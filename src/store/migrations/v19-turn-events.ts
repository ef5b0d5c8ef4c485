import type { Migration } from '../migrate.js';

/**
 * Every event a turn sent its host, kept as it was sent: an HTTP stream that lost its connection, or a
 * server process reading another's turn, replays them from the id it last saw. AUTOINCREMENT: an id
 * is never given twice, even after the newest events are deleted with their session.
 */
export const v19TurnEvents: Migration = {
  version: 19,
  name: 'turn events',
  sql: `
    CREATE TABLE turn_events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX turn_events_by_session ON turn_events (session_id, id);
    CREATE INDEX turn_events_by_turn ON turn_events (turn_id, id);
  `,
};
