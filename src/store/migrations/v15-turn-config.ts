import type { Migration } from '../migrate.js';

/**
 * The configuration a turn runs with: the config file's absolute path ('' for none), a SHA-256 of its
 * text, and the folder the process ran in. A turn stored before this step has none of them (NULL
 * `workdir`) and is resumed as before, with whatever configuration the resuming command finds.
 */
export const v15TurnConfig: Migration = {
  version: 15,
  name: 'turn config',
  sql: `
    ALTER TABLE turns ADD COLUMN config_file TEXT;
    ALTER TABLE turns ADD COLUMN config_sha256 TEXT;
    ALTER TABLE turns ADD COLUMN workdir TEXT;
  `,
};
