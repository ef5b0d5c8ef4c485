import type { TurnRecord } from '../core/session-records.js';
import type { Runtime } from '../runtime/runtime.js';
import { type ResumedConfig, resumedConfigFrom } from './resumed-config.js';
import { resumedModelFrom } from './resumed-model.js';
import { type RuntimeFlagValues, runtimeFromFlags } from './runtime-flags.js';
import { visible } from './visible-text.js';

/** What a resumed turn recorded of where it ran: its config, folder and model (absent: not recorded). */
export type ResumedTurn = Pick<TurnRecord, 'id' | 'sessionId' | 'ranWith' | 'provider' | 'model' | 'baseURL'>;

/**
 * The runtime a resumed turn goes on in: the config file and folder it ran with and the model it started
 * on, on database `db` (an absolute path). Whatever is refused (another --config or model flag, a file or
 * folder that is gone, no key) is refused before this process moves or starts anything; then the person
 * is told what is used, and the process moves into the turn's folder.
 */
export async function runtimeForResumedTurn(
  flags: RuntimeFlagValues,
  turn: ResumedTurn,
  db: string,
): Promise<{ readonly runtime: Runtime; readonly setup: ResumedConfig }> {
  const setup = resumedConfigFrom(flags, turn);
  resumedModelFrom(flags, setup.config, turn);
  for (const note of setup.notes) process.stderr.write(`${visible(note)}\n`);
  if (setup.workdir !== undefined) process.chdir(setup.workdir);
  const runtime = await runtimeFromFlags(flags, {
    config: setup.config,
    db,
    model: (config) => resumedModelFrom(flags, config, turn),
  });
  return { runtime, setup };
}
