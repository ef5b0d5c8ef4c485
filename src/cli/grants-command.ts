import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import type { GrantRecord } from '../core/session-records.js';
import type { SessionStore } from '../core/session-store.js';
import { openStore } from '../store/index.js';
import type { Command } from './command.js';
import { existingDatabaseFrom, noDatabaseYet } from './config-flags.js';
import { grantRows } from './grant-rows.js';
import { visible, visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam grants [--db FILE|URL] [--config FILE] [--session ID] [--json] [--revoke ID]

Lists the standing permissions answering "always" to an approval gave: each with its id, its tool,
what it covers (a shell command's program and subcommand, the folder of a written file, the
arguments shown) and where it holds (one session, or every session), then the ones withdrawn, with
when and why. --session lists those that hold in that session (its own and every session's).
--revoke ID withdraws one: the next call it covered is asked about again. --json prints
{"grants": [...], "withdrawn": [...]} (with --revoke, the withdrawn grant). The database (a SQLite file, or a postgres:// URL) is --db,
else "db" in the config (--config FILE or ./toolseam.json), else $TOOLSEAM_DB, else the default; a
file named one of these ways must exist (toolseam chat creates it).`;

/** `toolseam grants`: lists the standing permissions "always" gave, and withdraws one with --revoke. */
export const grantsCommand: Command = async (argv) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      config: { type: 'string' },
      session: { type: 'string' },
      revoke: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length > 0) {
    throw new InputError(
      `grants takes no words of its own, but got "${positionals.join(' ')}"; to withdraw a grant, give its id with --revoke ID.`,
    );
  }
  if (values.revoke !== undefined && values.session !== undefined) {
    throw new InputError('--revoke takes a grant id, which names its session already; leave --session out.');
  }
  const db = existingDatabaseFrom(values);
  // Listing must not make a database: with none yet there is nothing granted, and the person is told where we looked.
  if (!db.exists) {
    if (values.revoke !== undefined)
      throw new InputError(`there is no grant ${values.revoke}: ${noDatabaseYet(db)}.`);
    if (values.json) process.stdout.write(`${JSON.stringify({ grants: [], withdrawn: [] }, null, 2)}\n`);
    else process.stdout.write(`no standing permissions yet: ${noDatabaseYet(db)}.\n`);
    return 0;
  }
  const store = await openStore(db.path);
  try {
    if (values.revoke !== undefined) return await revoke(store, values.revoke, values.json === true);
    const session = values.session;
    if (session !== undefined && (await store.getSession(session)) === undefined) {
      throw new InputError(`there is no session ${session}; \`toolseam sessions\` lists them.`);
    }
    const filter = session === undefined ? { allSessions: true } : { sessionId: session };
    const grants = await store.listGrants(filter);
    const withdrawn = await store.listGrants({ ...filter, status: 'revoked' });
    if (values.json) {
      process.stdout.write(`${visibleLines(JSON.stringify({ grants, withdrawn }, null, 2))}\n`);
      return 0;
    }
    const which = session === undefined ? '' : ` holding in session ${visible(session)}`;
    const lines = [`standing permissions${which} (${store.path}):`, ...grantRows(grants)];
    if (grants.length > 0) lines.push('  (`toolseam grants --revoke ID` withdraws one)');
    if (withdrawn.length > 0) lines.push('', 'withdrawn:', ...grantRows(withdrawn));
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await store.close();
  }
};

/** Withdraws grant `id`, saying what it covered; an unknown id is refused, naming what lists them. */
async function revoke(store: SessionStore, id: string, json: boolean): Promise<number> {
  const grant = await store.getGrant(id);
  if (grant === undefined) {
    throw new InputError(
      `there is no standing permission ${id}; \`toolseam grants\` lists them with their ids (g-…).`,
    );
  }
  const withdrawn = await store.revokeGrant(id, 'withdrawn with `toolseam grants --revoke`');
  const after = (await store.getGrant(id)) as GrantRecord;
  if (json) {
    process.stdout.write(`${visibleLines(JSON.stringify(after, null, 2))}\n`);
    return 0;
  }
  const covered = after.scope?.summary ?? `every ${after.tool} call`;
  process.stdout.write(
    withdrawn
      ? `withdrawn ${visible(id)}: ${visible(after.tool)} is asked about again for what it covered (${visible(covered)}).\n`
      : `${visible(id)} was already withdrawn (${after.revokedAt}); nothing changed.\n`,
  );
  return 0;
}
