import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseConfig, readConfig, type ToolseamConfig } from '../config.js';
import { InputError } from '../core/errors.js';
import type { TurnRecord } from '../core/session-records.js';
import { type ConfigFlagValues, configFromFlags } from './config-flags.js';

/** What `approve` and `resume` go on with: the configuration and folder the turn ran with. */
export interface ResumedConfig {
  readonly config: ToolseamConfig;
  /** The folder to run in (the turn's) when it is not this process's; absent: stay here. */
  readonly workdir?: string;
  /** Lines for the person: that the turn's own config and folder are used, that the config changed. */
  readonly notes: readonly string[];
}

/**
 * The configuration a resumed turn goes on with: the config file (or none) and the folder it ran in,
 * as the turn recorded them, whatever this process's folder holds, so it is offered and runs the same
 * tools (an MCP server's relative paths and a default workspace start from that folder). A --config
 * may repeat the recorded file but not name another; a recorded file or folder that is gone is refused
 * here, before anything is answered. A config changed since is used as it is now, with a note. A turn
 * with no record (stored before it existed) takes --config or ./toolseam.json as before.
 */
export function resumedConfigFrom(
  flags: ConfigFlagValues,
  turn: Pick<TurnRecord, 'id' | 'sessionId' | 'ranWith'>,
  here = process.cwd(),
): ResumedConfig {
  const ran = turn.ranWith;
  if (ran === undefined) return { config: configFromFlags(flags), notes: [] };
  const elsewhere = `\`toolseam chat --session ${turn.sessionId}\` goes on in its session with the tools here instead`;
  const recorded = ran.file === undefined ? 'no config file' : `the config ${ran.file}`;
  if (flags.config !== undefined && resolve(here, flags.config) !== ran.file) {
    const repeat = ran.file === undefined ? '' : ` (or pass --config ${ran.file})`;
    throw new InputError(
      `turn ${turn.id} ran with ${recorded}; --config ${flags.config} names another, so leave --config out${repeat} to go on with the tools it started with.`,
    );
  }
  if (!isFolder(ran.workdir)) {
    throw new InputError(
      `turn ${turn.id} ran in ${ran.workdir}, which is no longer a folder, so its tools cannot be set up as they were; put the folder back, or ${elsewhere}.`,
    );
  }
  let config: ToolseamConfig;
  const notes: string[] = [];
  if (ran.file === undefined) {
    config = parseConfig({}, { baseDir: ran.workdir });
  } else {
    if (!existsSync(ran.file)) {
      throw new InputError(
        `turn ${turn.id} ran with the config ${ran.file}, which is no longer there, and its tools come from it; put it back, or ${elsewhere}.`,
      );
    }
    config = readConfig(ran.file);
    if (ran.sha256 !== undefined && config.sha256 !== ran.sha256) {
      notes.push(`${ran.file} changed since turn ${turn.id} started; going on with it as it is now.`);
    }
  }
  const wouldPick = flags.config === undefined ? localConfig(here) : resolve(here, flags.config);
  if (ran.workdir !== here || wouldPick !== ran.file) {
    notes.unshift(`turn ${turn.id} goes on in ${ran.workdir} with ${recorded}, as it ran.`);
  }
  return { config, notes, ...(ran.workdir === here ? {} : { workdir: ran.workdir }) };
}

/** `./toolseam.json` in `folder` as an absolute path, when there is one. */
function localConfig(folder: string): string | undefined {
  const file = resolve(folder, 'toolseam.json');
  return existsSync(file) ? file : undefined;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
