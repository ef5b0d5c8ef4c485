import { describe, expect, it } from 'vitest';
import { StoreNotFoundError } from '../../../src/core/store-errors.js';
import { commandScopeOf, folderScopeOf } from '../record-fixtures.js';
import type { StoreSubject } from '../session-store.contract.js';

/** Standing grants by session and scope, withdrawn with their record kept; the audit trail and its filters. */
export function grantAuditCases(subject: StoreSubject): void {
  describe('grants', () => {
    it('holds a session grant in its session only and a global one everywhere, each with its scope', async () => {
      const store = await subject.open();
      const a = await store.createSession();
      const b = await store.createSession();
      const local = await store.addGrant({
        tool: 'write_file',
        scope: folderScopeOf('/w/notes'),
        sessionId: a.id,
      });
      const global = await store.addGrant({ tool: 'bash', scope: commandScopeOf('git', 'status') });
      expect(local).toMatchObject({ tool: 'write_file', sessionId: a.id, scope: folderScopeOf('/w/notes') });
      expect(global.sessionId).toBeUndefined();
      expect(await store.getGrant(global.id)).toEqual(global);
      expect(await store.getGrant('g-none')).toBeUndefined();
      expect((await store.listGrants({ sessionId: a.id })).map((g) => g.tool)).toEqual([
        'write_file',
        'bash',
      ]);
      expect((await store.listGrants({ sessionId: b.id })).map((g) => g.tool)).toEqual(['bash']);
      expect((await store.listGrants({ sessionId: a.id, tool: 'bash' })).map((g) => g.id)).toEqual([
        global.id,
      ]);
      expect((await store.listGrants()).map((g) => g.tool)).toEqual(['bash']);
      expect((await store.listGrants({ allSessions: true })).map((g) => g.id)).toEqual([local.id, global.id]);
    });

    it('keeps one grant per tool, session and scope; another scope of the same tool is another grant', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      const first = await store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), sessionId: s.id });
      expect(await store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), sessionId: s.id })).toEqual(
        first,
      );
      const other = await store.addGrant({
        tool: 'bash',
        scope: commandScopeOf('git', 'status'),
        sessionId: s.id,
      });
      expect(other.id).not.toBe(first.id);
      const global = await store.addGrant({ tool: 'bash', scope: commandScopeOf('ls') });
      expect(await store.addGrant({ tool: 'bash', scope: commandScopeOf('ls') })).toEqual(global);
      expect(await store.listGrants({ sessionId: s.id })).toHaveLength(3);
    });

    it('a revoked grant no longer holds but keeps its record, when and why; it can be granted anew', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      const first = await store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), sessionId: s.id });
      expect(await store.revokeGrant(first.id, 'not any more')).toBe(true);
      expect(await store.revokeGrant(first.id)).toBe(false);
      expect(await store.listGrants({ sessionId: s.id })).toEqual([]);
      expect(await store.getGrant(first.id)).toMatchObject({
        revokedBy: 'person',
        revokedReason: 'not any more',
      });
      expect((await store.getGrant(first.id))?.revokedAt).toBeDefined();
      expect((await store.listGrants({ sessionId: s.id, status: 'revoked' })).map((g) => g.id)).toEqual([
        first.id,
      ]);
      const again = await store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), sessionId: s.id });
      expect(again.id).not.toBe(first.id);
      expect(await store.listGrants({ sessionId: s.id, status: 'all' })).toHaveLength(2);
      await expect(store.revokeGrant('g-none')).rejects.toThrow(StoreNotFoundError);
    });

    it('refuses a grant without a usable scope, for an unknown session, or without a tool', async () => {
      const store = await subject.open();
      const scope = commandScopeOf('ls');
      await expect(store.addGrant({ tool: 'bash', sessionId: 'missing', scope })).rejects.toThrow(
        StoreNotFoundError,
      );
      await expect(store.addGrant({ tool: '', scope })).rejects.toThrow(/tool of a grant/);
      await expect(store.addGrant({ tool: 'bash' } as never)).rejects.toThrow(/scope of a grant/);
      await expect(
        store.addGrant({ tool: 'bash', scope: { kind: 'everything', summary: 'all' } as never }),
      ).rejects.toThrow(/kind is one of/);
      await expect(
        store.addGrant({ tool: 'bash', scope: { kind: 'command', words: [], summary: 'x' } }),
      ).rejects.toThrow(/leading words/);
      expect(await store.listGrants({ allSessions: true })).toEqual([]);
    });
  });

  describe('audit trail', () => {
    it('round-trips events and filters them', async () => {
      const store = await subject.open();
      const s = await store.createSession();
      const t = await store.startTurn({ sessionId: s.id, userText: 'x' });
      const refused = await store.audit({
        kind: 'call.refused',
        sessionId: s.id,
        turnId: t.id,
        detail: { tool: 'bash', refusedBy: 'deny_list', args: { cmd: 'rm' } },
      });
      expect(refused).toMatchObject({
        kind: 'call.refused',
        sessionId: s.id,
        turnId: t.id,
        detail: { tool: 'bash', refusedBy: 'deny_list', args: { cmd: 'rm' } },
      });
      await store.audit({ kind: 'catalog.rebuilt', sessionId: s.id });
      await store.audit({ kind: 'store.note' });
      expect((await store.listAudit({ sessionId: s.id })).map((e) => e.kind)).toEqual([
        'call.refused',
        'catalog.rebuilt',
      ]);
      expect((await store.listAudit({ turnId: t.id })).map((e) => e.id)).toEqual([refused.id]);
      expect((await store.listAudit({ kind: 'store.note' }))[0]?.detail).toEqual({});
    });

    it('with a limit returns the newest events, oldest first', async () => {
      const store = await subject.open();
      for (const n of [1, 2, 3, 4]) await store.audit({ kind: 'tick', detail: { n } });
      expect((await store.listAudit({ limit: 2 })).map((e) => e.detail['n'])).toEqual([3, 4]);
      await expect(store.audit({ kind: 'x', detail: [] as never })).rejects.toThrow(/JSON object/);
    });
  });
}
