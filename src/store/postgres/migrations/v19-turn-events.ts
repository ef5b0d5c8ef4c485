import type { Migration } from '../../migrate.js';

/** Every event a turn sent its host, for replay from the last id seen; an identity column never
 * gives an id twice. */
export const v19TurnEvents: Migration = {
  version: 19,
  name: 'turn events',
  sql: `
    CREATE TABLE turn_events (
      id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      turn_id TEXT NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at BIGINT NOT NULL
    );
    CREATE INDEX turn_events_by_session ON turn_events (session_id, id);
    CREATE INDEX turn_events_by_turn ON turn_events (turn_id, id);
  `,
};
