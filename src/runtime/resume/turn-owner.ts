import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** How often a runtime marks the turns it drives alive in the store. */
export const OWNER_HEARTBEAT_MS = 15_000;

/**
 * How long a turn's owner on another host may stay silent before it counts as gone: it cannot be
 * asked (a container that was replaced keeps no process to ask about).
 */
export const OWNER_SILENT_MS = 8 * OWNER_HEARTBEAT_MS;

/**
 * How long an owner on this host whose pid is alive may stay silent before the pid counts as reused:
 * long, because a machine that slept stops every heartbeat while its processes live on.
 */
export const PID_REUSED_MS = 24 * 60 * 60 * 1000;

/**
 * The owner of a turn that waits in the job queue (hosted mode): stored but not started yet, or parked
 * while it waits for a person. No process drives it, so any worker may take it.
 */
export const QUEUED_OWNER = 'queued';

/** This process's identity as a turn owner: `host:pid`. */
export function processOwner(): string {
  return `${hostname()}:${process.pid}`;
}

/**
 * The owners of the runtimes open in this process. Kept on `globalThis`, so a second copy of toolseam
 * loaded in the same process still sees the first one's runtimes as alive.
 */
function openOwners(): Set<string> {
  const slot = Symbol.for('toolseam.openTurnOwners');
  const global = globalThis as { [slot]?: Set<string> };
  global[slot] ??= new Set();
  return global[slot];
}

/**
 * A new owner for one runtime: `host:pid/<random>`, alive while the runtime is open (until
 * `releaseRuntimeOwner`). Two runtimes of one process must not pass for each other: each would take
 * the other's live turns for its own dead ones.
 */
export function runtimeOwner(): string {
  const owner = `${processOwner()}/${randomBytes(4).toString('hex')}`;
  openOwners().add(owner);
  return owner;
}

/** Marks a runtime's owner gone (its runtime closed). */
export function releaseRuntimeOwner(owner: string): void {
  openOwners().delete(owner);
}

/** A turn as far as its owner goes. */
export interface OwnedTurn {
  readonly owner?: string | undefined;
  readonly ownerSeenAt?: string | undefined;
}

/**
 * True when the process that owns a turn is still running. On this host its pid says, unless the
 * heartbeat has been silent for a day (the pid was reused), and in this process whether the owning
 * runtime is still open; on another host its heartbeat says
 * (silent for 2 minutes: gone). A turn with no heartbeat recorded (stored before there was one)
 * counts as alive when it ran elsewhere. `silentMs` is the silence that counts as gone (workers of a
 * hosted deployment beat faster and give up sooner).
 */
export function ownerAlive(turn: OwnedTurn, now = Date.now(), silentMs = OWNER_SILENT_MS): boolean {
  const { owner, ownerSeenAt } = turn;
  if (!owner || owner === QUEUED_OWNER) return false;
  const seen = ownerSeenAt === undefined ? Number.NaN : Date.parse(ownerSeenAt);
  const silent = Number.isNaN(seen) ? 0 : now - seen;
  const parts = /^(.*):(\d+)(\/[0-9a-f]+)?$/.exec(owner);
  const host = parts?.[1];
  const pid = Number(parts?.[2]);
  if (host !== hostname() || !Number.isInteger(pid)) return silent <= silentMs;
  // This process: a runtime's owner lives as long as its runtime is open.
  if (pid === process.pid) return parts?.[3] === undefined || openOwners().has(owner);
  if (silent > PID_REUSED_MS) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
