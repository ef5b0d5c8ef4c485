import { type StandIn, type StandInOptions, startStandIn } from '../../src/testing/index.js';

const running: StandIn[] = [];

/** Closes every stand-in `standIn` started (call it from `afterEach`). */
export async function closeStandIns(): Promise<void> {
  await Promise.all(running.splice(0).map((s) => s.close()));
}

/** Starts a stand-in that `closeStandIns` closes. */
export async function standIn(options: StandInOptions): Promise<StandIn> {
  const s = await startStandIn(options);
  running.push(s);
  return s;
}
