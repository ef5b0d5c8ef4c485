import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { People } from '../../src/server/people.js';
import { userTokenClaim } from '../../src/server/user-tokens.js';
import { openSessionStore } from '../../src/store/index.js';
import { toolseamInProcessWithoutKeys } from './toolseam-in-process.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-users-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => toolseamInProcessWithoutKeys(args, dir);

describe('toolseam users', () => {
  it('adds a user and prints their token once, keeping only its hash; lists and revokes', async () => {
    const db = join(dir, 'host.db');
    const added = await run(['users', 'add', 'ann', '--db', db]);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const token = added.stdout.match(/^tsu\.\S+$/m)?.[0] as string;
    expect(token).toBeDefined();
    expect(added.stdout).toContain(`${db}.token`);
    expect(statSync(`${db}.token`).mode & 0o077).toBe(0);
    // The token itself is nowhere in the database file.
    expect(readFileSync(db).includes(token.split('.')[2] as string)).toBe(false);
    const store = openSessionStore({ path: db });
    try {
      const people = new People(store);
      expect((await people.verify(userTokenClaim(token)!))?.name).toBe('ann');
      // Another last character: 'A' ends one token in 16 (a 32-byte secret's last base64url character).
      const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'E' : 'A'}`;
      expect(await people.verify(userTokenClaim(altered)!)).toBeUndefined();

      const taken = await run(['users', 'add', 'ann', '--db', db]);
      expect(taken.code).not.toBe(0);
      expect(taken.stderr).toMatch(/already a user named "ann"/);
      expect(taken.stderr).not.toMatch(/\n\s+at /);

      const listed = JSON.parse((await run(['users', 'list', '--json', '--db', db])).stdout);
      expect(listed.users).toEqual([expect.objectContaining({ name: 'ann', revokedAt: null })]);
      expect(JSON.stringify(listed)).not.toContain('tokenHash');

      const revoked = await run(['users', 'revoke', 'ann', '--db', db]);
      expect(revoked.code).toBe(0);
      expect(await people.verify(userTokenClaim(token)!)).toBeUndefined();
      const again = await run(['users', 'revoke', 'ann', '--db', db]);
      expect(again.stderr).toMatch(/already revoked/);
      const unknown = await run(['users', 'revoke', 'zed', '--db', db]);
      expect(unknown.stderr).toMatch(/no user zed/);
      const wrong = await run(['users', 'remove', 'ann', '--db', db]);
      expect(wrong.stderr).toMatch(/add NAME, list or revoke NAME, not "remove"/);
    } finally {
      await store.close();
    }
  });
});
