import { InputError } from '../core/errors.js';
import type { UserRecord } from '../core/session-records.js';
import { userShape } from '../server/people.js';
import { serverToken } from '../server/server-token.js';
import { issueUserToken } from '../server/user-tokens.js';
import { defaultDatabasePath, openStore } from '../store/index.js';
import type { Command } from './command.js';
import { databasePathFrom, existingDatabaseFrom, noDatabaseYet } from './config-flags.js';
import { storeCommandArgs } from './store-command-args.js';

const USAGE = `usage: toolseam users add NAME | list | revoke NAME   [--db FILE|URL] [--config FILE] [--json]

The people \`toolseam serve\` serves, each with a token of their own: a user sees and answers only
their own sessions, approvals, turns and streams. A host of one person needs none of this.
  add NAME      adds a user (NAME: a-z, 0-9, "_" and "-") and prints their token, once: the database
                keeps only a hash of it, so a lost token is replaced by revoking and adding again.
                Once a host has users, every request needs a token, on loopback too; the owner's
                (which manages users and switches tools) is in <db>.token
  list          the users, with when each was added and revoked
  revoke NAME   the user's token stops working at once, on every serve process; their sessions stay
The database (a SQLite file, or a postgres:// URL) is --db, else "db" in the config, else $TOOLSEAM_DB, else the default.`;

/** `toolseam users`: add, list and revoke the people a host serves. */
export const usersCommand: Command = async (argv) => {
  const args = storeCommandArgs(argv, USAGE);
  if (!args) return 0;
  const { values, positionals } = args;
  const [action, name, ...extra] = positionals;
  const wantsName = action === 'add' || action === 'revoke';
  if (action === undefined || !['add', 'list', 'revoke'].includes(action)) {
    throw new InputError(`users takes add NAME, list or revoke NAME${action ? `, not "${action}"` : ''}.`);
  }
  if ((wantsName && name === undefined) || extra.length > 0 || (!wantsName && name !== undefined)) {
    throw new InputError(wantsName ? `users ${action} takes one name.` : 'users list takes no name.');
  }
  if (action === 'add')
    return add(databasePathFrom(values) ?? defaultDatabasePath(), name as string, values.json);
  const db = existingDatabaseFrom(values);
  if (!db.exists) {
    if (action === 'revoke') throw new InputError(`there is no user ${name}: ${noDatabaseYet(db)}.`);
    process.stdout.write(values.json ? '{ "users": [] }\n' : `no users yet: ${noDatabaseYet(db)}.\n`);
    return 0;
  }
  const store = await openStore(db.path);
  try {
    if (action === 'list') {
      const users = await store.listUsers();
      if (values.json) process.stdout.write(`${JSON.stringify({ users: users.map(userShape) }, null, 2)}\n`);
      else
        process.stdout.write(users.length === 0 ? 'no users yet (toolseam users add NAME)\n' : table(users));
      return 0;
    }
    if (await store.revokeUser(name as string)) {
      process.stdout.write(`revoked ${name}: their token no longer works; their sessions are kept.\n`);
      return 0;
    }
    const user = await store.getUser(name as string);
    if (user) throw new InputError(`${name} was already revoked (${user.revokedAt}).`);
    throw new InputError(`there is no user ${name}; \`toolseam users list\` lists them.`);
  } finally {
    await store.close();
  }
};

async function add(path: string, name: string, json: boolean | undefined): Promise<number> {
  const store = await openStore(path);
  try {
    const issued = issueUserToken();
    const user = await store.createUser({ id: issued.userId, name, tokenHash: issued.tokenHash });
    // The owner signs in with this once the host has users, on loopback too.
    const owner = path === ':memory:' ? undefined : serverToken(path);
    if (json) {
      const body = { user: userShape(user), token: issued.token, ownerTokenFile: owner?.file ?? null };
      process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
      return 0;
    }
    const lines = [
      `added ${user.name} (${user.id}). Their token, shown this once (the database keeps only a hash):`,
      issued.token,
    ];
    if (owner) lines.push(`Every request now needs a token; the owner's is in ${owner.file}.`);
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

function table(users: readonly UserRecord[]): string {
  const width = Math.max(4, ...users.map((u) => u.name.length));
  const rows = users.map(
    (u) =>
      `${u.name.padEnd(width)}  ${u.id}  added ${u.createdAt}${u.revokedAt ? `  revoked ${u.revokedAt}` : ''}`,
  );
  return `${rows.join('\n')}\n`;
}
