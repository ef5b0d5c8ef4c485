import { describe, expect, it } from 'vitest';
import { StoreNotFoundError } from '../../src/core/store-errors.js';
import { openTestStore } from './store-fixtures.js';

describe('grants', () => {
  it('holds a session grant in its session only and a global one everywhere', () => {
    const store = openTestStore();
    const a = store.createSession();
    const b = store.createSession();
    const local = store.addGrant({ tool: 'read_file', sessionId: a.id });
    const global = store.addGrant({ tool: 'grep' });
    expect(local).toMatchObject({ tool: 'read_file', sessionId: a.id });
    expect(global.sessionId).toBeUndefined();
    expect(store.hasGrant(a.id, 'read_file')).toBe(true);
    expect(store.hasGrant(b.id, 'read_file')).toBe(false);
    expect(store.hasGrant(b.id, 'grep')).toBe(true);
    expect(store.hasGrant(a.id, 'bash')).toBe(false);
    expect(store.listGrants({ sessionId: a.id }).map((g) => g.tool)).toEqual(['read_file', 'grep']);
    expect(store.listGrants().map((g) => g.tool)).toEqual(['grep']);
  });

  it('is idempotent and can be revoked', () => {
    const store = openTestStore();
    const s = store.createSession();
    const first = store.addGrant({ tool: 'bash', sessionId: s.id });
    expect(store.addGrant({ tool: 'bash', sessionId: s.id })).toEqual(first);
    const global = store.addGrant({ tool: 'bash' });
    expect(store.addGrant({ tool: 'bash' })).toEqual(global);
    expect(store.listGrants({ sessionId: s.id })).toHaveLength(2);
    expect(store.revokeGrant(first.id)).toBe(true);
    expect(store.revokeGrant(first.id)).toBe(false);
    expect(store.revokeGrant(global.id)).toBe(true);
    expect(store.hasGrant(s.id, 'bash')).toBe(false);
    expect(() => store.addGrant({ tool: 'bash', sessionId: 'missing' })).toThrow(StoreNotFoundError);
    expect(() => store.addGrant({ tool: '' })).toThrow(/tool of a grant/);
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
