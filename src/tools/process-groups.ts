import { readdirSync, readFileSync } from 'node:fs';

/** Process groups toolseam started (MCP stdio servers, `bash` commands) that may still have processes. */
const liveGroups = new Set<number>();
let hooksSet = false;

/** Signals that end a process which does not handle them; a group of its own does not receive them. */
const ENDING_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;

function stopLiveGroups(): void {
  for (const group of liveGroups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/**
 * A signal that would end toolseam as it stands (no one else listens for it): the groups are stopped,
 * then the signal is raised again with no listener, so the process ends as it would have. A host that
 * handles the signal itself decides; the `exit` hook stops the groups when it leaves.
 */
function onEndingSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  stopLiveGroups();
  for (const s of ENDING_SIGNALS) process.off(s, onEndingSignal);
  process.kill(process.pid, signal);
}

/**
 * Counts `group` (a process group toolseam started, by its leader's id) as live: it is killed if
 * toolseam exits, or is ended by SIGTERM, SIGHUP or SIGINT it does not handle, before it is forgotten.
 */
export function watchGroup(group: number): void {
  liveGroups.add(group);
  if (hooksSet) return;
  hooksSet = true;
  // The group's leader leads a group of its own, so neither Ctrl-C nor a closed terminal reaches it, and
  // a process ended by a signal runs no `exit` hook: without these, the group would outlive toolseam.
  process.on('exit', stopLiveGroups);
  for (const signal of ENDING_SIGNALS) process.on(signal, onEndingSignal);
}

/** Forgets a group with no process left, so its id is never signalled once reused. */
export function forgetGroup(group: number): void {
  liveGroups.delete(group);
}

/** Whether /proc/<pid>/stat describes a process of `group` that still runs (a zombie only waits to be reaped). */
function runsIn(stat: string, group: number): boolean {
  // After the command name, which may hold spaces, in parentheses: state, parent, group, …
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[2]) === group && fields[0] !== 'Z' && fields[0] !== 'X';
}

/**
 * True while a process of `group` still runs. Signal 0 alone also counts zombies, the ended processes no
 * one has reaped yet (`exit 0 &` leaves one, and in a container whose first process never reaps, for
 * good); on Linux /proc tells them apart.
 */
export function groupRuns(group: number): boolean {
  try {
    process.kill(-group, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  for (const pid of pids) {
    try {
      if (runsIn(readFileSync(`/proc/${pid}/stat`, 'utf8'), group)) return true;
    } catch {
      // Gone while the list was read.
    }
  }
  return false;
}
