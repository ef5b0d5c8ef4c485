import type { Migration } from '../../migrate.js';

/** The configuration file, its hash and the folder a turn ran with. */
export const v15TurnConfig: Migration = {
  version: 15,
  name: 'turn config',
  sql: `
    ALTER TABLE turns ADD COLUMN config_file TEXT;
    ALTER TABLE turns ADD COLUMN config_sha256 TEXT;
    ALTER TABLE turns ADD COLUMN workdir TEXT;
  `,
};
