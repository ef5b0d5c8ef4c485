import { hostname } from 'node:os';

/** How often a runtime marks the turns it drives alive in the store. */
export const OWNER_HEARTBEAT_MS = 15_000;

/**
 * How long a turn's owner may stay silent before it counts as gone, wherever it ran: a process on
 * another host (a container that was replaced) cannot be asked, and a pid on this one may be reused.
 */
export const OWNER_SILENT_MS = 8 * OWNER_HEARTBEAT_MS;

/** This process's identity as a turn owner: `host:pid`. */
export function processOwner(): string {
  return `${hostname()}:${process.pid}`;
}

/** A turn as far as its owner goes. */
export interface OwnedTurn {
  readonly owner?: string | undefined;
  readonly ownerSeenAt?: string | undefined;
}

/**
 * True when the process that owns a turn is still running: its heartbeat is recent and, on this host,
 * its pid is alive. A turn with no heartbeat recorded (stored before there was one) is judged by pid
 * alone, and counts as alive when it ran elsewhere.
 */
export function ownerAlive(turn: OwnedTurn, now = Date.now()): boolean {
  const { owner, ownerSeenAt } = turn;
  if (!owner) return false;
  const seen = ownerSeenAt === undefined ? Number.NaN : Date.parse(ownerSeenAt);
  if (!Number.isNaN(seen) && now - seen > OWNER_SILENT_MS) return false;
  const at = owner.lastIndexOf(':');
  const host = owner.slice(0, at);
  const pid = Number(owner.slice(at + 1));
  if (host !== hostname() || !Number.isInteger(pid)) return true;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
