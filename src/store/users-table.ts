import { InputError } from '../core/errors.js';
import type { NewUser } from '../core/session-inputs.js';
import type { UserRecord } from '../core/session-records.js';
import { iso, optIso, pickId, requireText } from './rows.js';
import type { StoreContext } from './store-context.js';

/** A users row as stored. */
export interface UserRow {
  id: string;
  name: string;
  token_hash: string;
  created_at: number;
  revoked_at: number | null;
}

/** What a user's name may be: short, lower case, easy to type in a command. */
export const USER_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A users row as a record (also the PostgreSQL store's). */
export function toRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    name: row.name,
    tokenHash: row.token_hash,
    createdAt: iso(row.created_at),
    revokedAt: optIso(row.revoked_at),
  };
}

/** A new user's name and token hash, checked (also the PostgreSQL store's check). */
export function checkedUser(input: NewUser): { name: string; hash: string } {
  const name = requireText(input?.name, "A user's name");
  if (!USER_NAME.test(name)) {
    throw new InputError(
      `A user's name is 1 to 64 of a-z, 0-9, "_" and "-", starting with a letter or digit; "${name}" is not.`,
    );
  }
  const hash = requireText(input.tokenHash, "A user's token hash");
  if (!/^[0-9a-f]{64}$/.test(hash)) {
    throw new InputError(
      "A user's token hash is 64 lower-case hex digits (a SHA-256); the token itself is never stored.",
    );
  }
  return { name, hash };
}

/** The refusal of a name another user has. */
export function nameTaken(name: string): InputError {
  return new InputError(
    `There is already a user named "${name}" (revoked users keep their names); choose another.`,
  );
}

/** The refusal of a token hash another user has. */
export const HASH_TAKEN = 'Another user already has that token; make a new one.';

/** The users table: the people a host serves, their tokens kept as hashes. */
export function usersTable(ctx: StoreContext) {
  const { db } = ctx;
  const insert = db.prepare(
    'INSERT INTO users (id, name, token_hash, created_at) VALUES (@id, @name, @hash, @now)',
  );
  const byIdOrName = db.prepare(
    'SELECT * FROM users WHERE id = @key OR name = @key ORDER BY id = @key DESC LIMIT 1',
  );
  const byName = db.prepare('SELECT 1 FROM users WHERE name = ?').pluck();
  const byId = db.prepare('SELECT 1 FROM users WHERE id = ?').pluck();
  const byHash = db.prepare('SELECT 1 FROM users WHERE token_hash = ?').pluck();
  const all = db.prepare('SELECT * FROM users ORDER BY created_at, rowid');
  const revoke = db.prepare('UPDATE users SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');

  const get = (idOrName: string): UserRecord | undefined => {
    const row = byIdOrName.get({ key: requireText(idOrName, 'A user id or name') }) as UserRow | undefined;
    return row ? toRecord(row) : undefined;
  };

  return {
    create(input: NewUser): UserRecord {
      const { name, hash } = checkedUser(input);
      return ctx.write(() => {
        const id = pickId(
          input.id,
          () => ctx.newId('u'),
          'user',
          (i) => byId.get(i),
        );
        if (byName.get(name) !== undefined) {
          throw nameTaken(name);
        }
        if (byHash.get(hash) !== undefined) throw new InputError(HASH_TAKEN);
        insert.run({ id, name, hash, now: ctx.now() });
        return get(id) as UserRecord;
      });
    },
    get,
    list(): UserRecord[] {
      return (all.all() as UserRow[]).map(toRecord);
    },
    revoke(idOrName: string): boolean {
      return ctx.write(() => {
        const user = get(idOrName);
        return user !== undefined && revoke.run(ctx.now(), user.id).changes === 1;
      });
    },
  };
}

/** The users table module's interface. */
export type UsersTable = ReturnType<typeof usersTable>;
