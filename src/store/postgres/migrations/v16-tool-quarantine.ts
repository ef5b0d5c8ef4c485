import type { Migration } from '../../migrate.js';

/** Tools a provider refused, left out for that provider and model until lifted. */
export const v16ToolQuarantine: Migration = {
  version: 16,
  name: 'tool quarantine',
  sql: `
    CREATE TABLE tool_quarantine (
      provider TEXT NOT NULL,
      model TEXT NOT NULL,
      tool_name TEXT NOT NULL,
      n BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
      said TEXT NOT NULL,
      session_id TEXT REFERENCES sessions (id) ON DELETE SET NULL,
      turn_id TEXT REFERENCES turns (id) ON DELETE SET NULL,
      created_at BIGINT NOT NULL,
      PRIMARY KEY (provider, model, tool_name)
    );
  `,
};
