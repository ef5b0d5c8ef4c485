import { InputError } from '../../core/errors.js';
import type { NewUser } from '../../core/session-inputs.js';
import type { UserRecord } from '../../core/session-records.js';
import { pickId, requireText } from '../rows.js';
import { checkedUser, HASH_TAKEN, nameTaken, toRecord, type UserRow } from '../users-table.js';
import type { PgContext } from './pg-context.js';

/** The users, as the SQLite store keeps them (`users-table.ts`), in PostgreSQL. */
export function pgUsers(ctx: PgContext) {
  const get = async (idOrName: string): Promise<UserRecord | undefined> => {
    const key = requireText(idOrName, 'A user id or name');
    const row = await ctx.get<UserRow>(
      'SELECT * FROM users WHERE id = @key OR name = @key ORDER BY (id = @key) DESC LIMIT 1',
      { key },
    );
    return row ? toRecord(row) : undefined;
  };
  return {
    createUser(input: NewUser): Promise<UserRecord> {
      const { name, hash } = checkedUser(input);
      return ctx.write(async () => {
        const id = pickId(
          input.id,
          () => ctx.newId('u'),
          'user',
          () => undefined,
        );
        const taken = await ctx.get<{ id: string; name: string; token_hash: string }>(
          'SELECT id, name, token_hash FROM users WHERE id = ? OR name = ? OR token_hash = ? LIMIT 1',
          [id, name, hash],
        );
        if (taken?.name === name) throw nameTaken(name);
        if (taken?.token_hash === hash) throw new InputError(HASH_TAKEN);
        if (taken)
          throw new InputError(`A user with id ${JSON.stringify(id)} already exists; leave the id out.`);
        await ctx.run('INSERT INTO users (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)', [
          id,
          name,
          hash,
          ctx.now(),
        ]);
        return (await get(id)) as UserRecord;
      });
    },
    getUser: get,
    async listUsers(): Promise<UserRecord[]> {
      return (await ctx.all<UserRow>('SELECT * FROM users ORDER BY created_at, id')).map(toRecord);
    },
    revokeUser(idOrName: string): Promise<boolean> {
      return ctx.write(async () => {
        const user = await get(idOrName);
        if (!user) return false;
        const changed = await ctx.run('UPDATE users SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [
          ctx.now(),
          user.id,
        ]);
        return changed === 1;
      });
    },
  };
}
