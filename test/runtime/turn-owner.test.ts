import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { OWNER_SILENT_MS, ownerAlive, PID_REUSED_MS } from '../../src/runtime/resume/turn-owner.js';

const now = Date.parse('2030-01-02T01:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();
const here = (pid: number) => `${hostname()}:${pid}`;

describe('ownerAlive', () => {
  it('on another host, goes by the heartbeat: silent past the limit is gone', () => {
    expect(ownerAlive({ owner: 'old-container-3f2a:7', ownerSeenAt: ago(OWNER_SILENT_MS + 1) }, now)).toBe(
      false,
    );
    expect(ownerAlive({ owner: 'other-host:7', ownerSeenAt: ago(1_000) }, now)).toBe(true);
  });

  it('on this host, goes by the pid, however long a sleeping machine kept the heartbeat silent', () => {
    expect(ownerAlive({ owner: here(process.ppid), ownerSeenAt: ago(OWNER_SILENT_MS * 10) }, now)).toBe(true);
    expect(ownerAlive({ owner: here(2147483646), ownerSeenAt: ago(1_000) }, now)).toBe(false);
  });

  it("on this host, reads a runtime's owner (`host:pid/<id>`) by its pid too", () => {
    const silent = ago(OWNER_SILENT_MS * 10);
    expect(ownerAlive({ owner: `${here(process.ppid)}/9f3c01aa`, ownerSeenAt: silent }, now)).toBe(true);
    expect(ownerAlive({ owner: `${here(2147483646)}/9f3c01aa`, ownerSeenAt: ago(1_000) }, now)).toBe(false);
    // In this process, a runtime that never opened here (or closed) is gone.
    expect(ownerAlive({ owner: `${here(process.pid)}/9f3c01aa`, ownerSeenAt: ago(1_000) }, now)).toBe(false);
  });

  it('on this host, counts a pid silent for longer than a day as reused', () => {
    expect(ownerAlive({ owner: here(process.ppid), ownerSeenAt: ago(PID_REUSED_MS + 1) }, now)).toBe(false);
  });

  it('judges a turn stored before heartbeats by pid alone, and one with no owner as gone', () => {
    expect(ownerAlive({ owner: 'other-host:7' }, now)).toBe(true);
    expect(ownerAlive({ owner: here(2147483646) }, now)).toBe(false);
    expect(ownerAlive({}, now)).toBe(false);
  });
});
