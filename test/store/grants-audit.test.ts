import { describe, expect, it } from 'vitest';
import { StoreNotFoundError } from '../../src/core/store-errors.js';
import { commandScopeOf, folderScopeOf, openTestStore } from './store-fixtures.js';

describe('grants', () => {
  it('holds a session grant in its session only and a global one everywhere, each with its scope', () => {
    const store = openTestStore();
    const a = store.createSession();
    const b = store.createSession();
    const local = store.addGrant({ tool: 'write_file', scope: folderScopeOf('/w/notes'), sessionId: a.id });
    const global = store.addGrant({ tool: 'bash', scope: commandScopeOf('git', 'status') });
    expect(local).toMatchObject({ tool: 'write_file', sessionId: a.id, scope: folderScopeOf('/w/notes') });
    expect(global.sessionId).toBeUndefined();
    expect(store.getGrant(global.id)).toEqual(global);
    expect(store.getGrant('g-none')).toBeUndefined();
    expect(store.listGrants({ sessionId: a.id }).map((g) => g.tool)).toEqual(['write_file', 'bash']);
    expect(store.listGrants({ sessionId: b.id }).map((g) => g.tool)).toEqual(['bash']);
    expect(store.listGrants({ sessionId: a.id, tool: 'bash' }).map((g) => g.id)).toEqual([global.id]);
    expect(store.listGrants().map((g) => g.tool)).toEqual(['bash']);
    expect(store.listGrants({ allSessions: true }).map((g) => g.id)).toEqual([local.id, global.id]);
  });

  it('keeps one grant per tool, session and scope; another scope of the same tool is another grant', () => {
    const store = openTestStore();
    const s = store.createSession();
    const first = store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), sessionId: s.id });
    expect(store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), sessionId: s.id })).toEqual(first);
    const other = store.addGrant({ tool: 'bash', scope: commandScopeOf('git', 'status'), sessionId: s.id });
    expect(other.id).not.toBe(first.id);
    const global = store.addGrant({ tool: 'bash', scope: commandScopeOf('ls') });
    expect(store.addGrant({ tool: 'bash', scope: commandScopeOf('ls') })).toEqual(global);
    expect(store.listGrants({ sessionId: s.id })).toHaveLength(3);
  });

  it('a revoked grant no longer holds but keeps its record, when and why; it can be granted anew', () => {
    const store = openTestStore();
    const s = store.createSession();
    const first = store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), sessionId: s.id });
    expect(store.revokeGrant(first.id, 'not any more')).toBe(true);
    expect(store.revokeGrant(first.id)).toBe(false);
    expect(store.listGrants({ sessionId: s.id })).toEqual([]);
    expect(store.getGrant(first.id)).toMatchObject({ revokedBy: 'person', revokedReason: 'not any more' });
    expect(store.getGrant(first.id)?.revokedAt).toBeDefined();
    expect(store.listGrants({ sessionId: s.id, status: 'revoked' }).map((g) => g.id)).toEqual([first.id]);
    const again = store.addGrant({ tool: 'bash', scope: commandScopeOf('ls'), sessionId: s.id });
    expect(again.id).not.toBe(first.id);
    expect(store.listGrants({ sessionId: s.id, status: 'all' })).toHaveLength(2);
    expect(() => store.revokeGrant('g-none')).toThrow(StoreNotFoundError);
  });

  it('refuses a grant without a usable scope, for an unknown session, or without a tool', () => {
    const store = openTestStore();
    const scope = commandScopeOf('ls');
    expect(() => store.addGrant({ tool: 'bash', sessionId: 'missing', scope })).toThrow(StoreNotFoundError);
    expect(() => store.addGrant({ tool: '', scope })).toThrow(/tool of a grant/);
    expect(() => store.addGrant({ tool: 'bash' } as never)).toThrow(/scope of a grant/);
    expect(() =>
      store.addGrant({ tool: 'bash', scope: { kind: 'everything', summary: 'all' } as never }),
    ).toThrow(/kind is one of/);
    expect(() =>
      store.addGrant({ tool: 'bash', scope: { kind: 'command', words: [], summary: 'x' } }),
    ).toThrow(/leading words/);
    expect(store.listGrants({ allSessions: true })).toEqual([]);
  });
});

describe('audit trail', () => {
  it('round-trips events and filters them', () => {
    const store = openTestStore();
    const s = store.createSession();
    const t = store.startTurn({ sessionId: s.id, userText: 'x' });
    const refused = store.audit({
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
    store.audit({ kind: 'catalog.rebuilt', sessionId: s.id });
    store.audit({ kind: 'store.note' });
    expect(store.listAudit({ sessionId: s.id }).map((e) => e.kind)).toEqual([
      'call.refused',
      'catalog.rebuilt',
    ]);
    expect(store.listAudit({ turnId: t.id }).map((e) => e.id)).toEqual([refused.id]);
    expect(store.listAudit({ kind: 'store.note' })[0]?.detail).toEqual({});
  });

  it('with a limit returns the newest events, oldest first', () => {
    const store = openTestStore();
    for (const n of [1, 2, 3, 4]) store.audit({ kind: 'tick', detail: { n } });
    expect(store.listAudit({ limit: 2 }).map((e) => e.detail['n'])).toEqual([3, 4]);
    expect(() => store.audit({ kind: 'x', detail: [] as never })).toThrow(/JSON object/);
  });
});
