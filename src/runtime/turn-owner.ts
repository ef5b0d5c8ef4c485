import { hostname } from 'node:os';

/** This process's identity as a turn owner: `host:pid`. */
export function processOwner(): string {
  return `${hostname()}:${process.pid}`;
}

/** True when the process that owns a turn is still running (only knowable on this host). */
export function ownerAlive(owner: string | undefined): boolean {
  if (!owner) return false;
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
