import type { Migration } from '../migrate.js';

/**
 * Standing grants get a scope (what "always" covered, as the person saw it), and a withdrawn grant keeps
 * its record: when, by whom and why. Every grant stored before has no scope: it let any later call of its
 * tool run unasked (a grant given for `bash ls` ran `rm -rf` too), so it is withdrawn here, by the
 * upgrade, with the reason, and the next question about that tool says why it is asked again.
 * Approvals keep the scope "always" would have had and a notice shown with the question.
 */
export const v13GrantScopes: Migration = {
  version: 13,
  name: 'grant scopes',
  sql: `
    ALTER TABLE grants ADD COLUMN scope TEXT;
    ALTER TABLE grants ADD COLUMN revoked_at INTEGER;
    ALTER TABLE grants ADD COLUMN revoked_by TEXT CHECK (revoked_by = 'person' OR revoked_by = 'upgrade');
    ALTER TABLE grants ADD COLUMN revoked_reason TEXT;
    ALTER TABLE grants ADD COLUMN noticed_at INTEGER;
    DROP INDEX grants_one_per_tool;
    UPDATE grants SET
      revoked_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000,
      revoked_by = 'upgrade',
      revoked_reason = 'it let every ' || tool_name || ' call run unasked, whatever its arguments; ' ||
        'a standing permission now covers only what the person saw when they gave it'
    WHERE scope IS NULL;
    CREATE UNIQUE INDEX grants_one_per_scope ON grants (ifnull(session_id, ''), tool_name, scope)
      WHERE revoked_at IS NULL;
    CREATE INDEX grants_by_tool ON grants (tool_name);
    ALTER TABLE approvals ADD COLUMN always TEXT;
    ALTER TABLE approvals ADD COLUMN notice TEXT;
  `,
};
