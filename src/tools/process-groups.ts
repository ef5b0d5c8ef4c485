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
