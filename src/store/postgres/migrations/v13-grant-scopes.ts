import type { Migration } from '../../migrate.js';

/** Grants get a scope and keep their record when withdrawn; a grant without a scope (none can exist in
 * a new Postgres store, but the step is the same as SQLite's) is withdrawn by the upgrade. */
export const v13GrantScopes: Migration = {
  version: 13,
  name: 'grant scopes',
  sql: `
    ALTER TABLE grants ADD COLUMN scope TEXT;
    ALTER TABLE grants ADD COLUMN revoked_at BIGINT;
    ALTER TABLE grants ADD COLUMN revoked_by TEXT CHECK (revoked_by IN ('person', 'upgrade'));
    ALTER TABLE grants ADD COLUMN revoked_reason TEXT;
    ALTER TABLE grants ADD COLUMN noticed_at BIGINT;
    DROP INDEX grants_one_per_tool;
    UPDATE grants SET
      revoked_at = (extract(epoch FROM now()) * 1000)::bigint,
      revoked_by = 'upgrade',
      revoked_reason = 'it let every ' || tool_name || ' call run unasked, whatever its arguments; ' ||
        'a standing permission now covers only what the person saw when they gave it'
    WHERE scope IS NULL;
    CREATE UNIQUE INDEX grants_one_per_scope ON grants (coalesce(session_id, ''), tool_name, scope)
      WHERE revoked_at IS NULL;
    CREATE INDEX grants_by_tool ON grants (tool_name);
    ALTER TABLE approvals ADD COLUMN always TEXT;
    ALTER TABLE approvals ADD COLUMN notice TEXT;
  `,
};
