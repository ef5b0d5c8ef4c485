import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { OWNER_SILENT_MS, ownerAlive } from '../../src/runtime/turn-owner.js';

const now = Date.parse('2030-01-01T01:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('ownerAlive', () => {
  it('counts an owner silent for longer than the limit as gone, on any host', () => {
    const silent = ago(OWNER_SILENT_MS + 1);
    expect(ownerAlive({ owner: 'old-container-3f2a:7', ownerSeenAt: silent }, now)).toBe(false);
    // This very process, too: a pid can be reused after a restart.
    expect(ownerAlive({ owner: `${hostname()}:${process.pid}`, ownerSeenAt: silent }, now)).toBe(false);
  });

  it('trusts a recent heartbeat from another host, and asks this host for its own pids', () => {
    expect(ownerAlive({ owner: 'other-host:7', ownerSeenAt: ago(1_000) }, now)).toBe(true);
    expect(ownerAlive({ owner: `${hostname()}:${process.pid}`, ownerSeenAt: ago(1_000) }, now)).toBe(true);
    expect(ownerAlive({ owner: `${hostname()}:2147483646`, ownerSeenAt: ago(1_000) }, now)).toBe(false);
  });

  it('judges a turn stored before heartbeats by pid alone, and one with no owner as gone', () => {
    expect(ownerAlive({ owner: 'other-host:7' }, now)).toBe(true);
    expect(ownerAlive({ owner: `${hostname()}:2147483646` }, now)).toBe(false);
    expect(ownerAlive({}, now)).toBe(false);
  });
});
