import type { ToolseamConfig } from '../config.js';
import { InputError } from '../core/errors.js';
import type { QuarantineRecord, ToolSwitchRecord } from '../core/session-store.js';
import { StoredSwitches } from '../runtime/tool-switches/stored-switches.js';
import { checkSwitch, knownTools, switchTool } from '../runtime/tool-switches/switch-tool.js';
import { openStore } from '../store/index.js';
import { existingDatabaseFrom } from './config-flags.js';
import { withConfigRegistry } from './config-registry.js';
import { liftedLines } from './quarantine-text.js';
import { visible } from './visible-text.js';

/** The flags a switch reads: the database, and the tools to switch on and off. */
export interface SwitchFlags {
  readonly db?: string | undefined;
  readonly config?: string | undefined;
  readonly on?: readonly string[] | undefined;
  readonly off?: readonly string[] | undefined;
}

/**
 * `toolseam tools --off NAME` / `--on NAME`: stores each switch in the session database, where every
 * toolseam on it (a chat, `toolseam serve`) applies it from its next turn; switching on also lifts the
 * tool's quarantine. Every name is checked before any switch is stored.
 */
export async function switchTools(flags: SwitchFlags, config: ToolseamConfig): Promise<number> {
  const wanted = [
    ...(flags.off ?? []).map((tool) => ({ tool, on: false })),
    ...(flags.on ?? []).map((tool) => ({ tool, on: true })),
  ];
  const both = (flags.off ?? []).find((tool) => flags.on?.includes(tool));
  if (both !== undefined) {
    throw new InputError(
      `${both} is named by both --on and --off; name each tool once, with the switch you want.`,
    );
  }
  // The default place is made when missing (a switch is worth keeping); a named file must exist.
  const store = await openStore(existingDatabaseFrom(flags).path);
  try {
    const lines = await withConfigRegistry(config, async (registry) => {
      const switches = new StoredSwitches(store, registry, config.denyList);
      await switches.sync();
      const known = knownTools(await registry.serve(), await store.listQuarantined(), switches);
      for (const request of wanted) checkSwitch(switches, known, request);
      const out: string[] = [];
      for (const request of wanted) {
        const done = await switchTool(store, switches, known, { ...request, by: 'cli' });
        out.push(...switchedLines(done.switch, done.lifted));
      }
      return out;
    });
    process.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

/** What one switch did, for a person: the quarantines it lifted, then the switch and when it applies. */
function switchedLines(flip: ToolSwitchRecord, lifted: readonly QuarantineRecord[]): string[] {
  const name = visible(flip.tool);
  if (!flip.on) {
    return [
      `${name}: switched off; the next turn of every toolseam on this database goes without it (\`toolseam tools --on ${name}\` switches it back on)`,
    ];
  }
  const again = lifted.length > 0 ? ' (one the provider refuses again is quarantined again)' : '';
  return [
    ...(lifted.length > 0 ? [liftedLines(lifted)] : []),
    `${name}: switched on; the next turn of every toolseam on this database may offer it${again}`,
  ];
}

/** The Tools page's section on switches: the tools a person switched off, with when, by whom and how to switch back. */
export function switchesSection(
  switches: readonly ToolSwitchRecord[],
  fixed: (tool: string) => string | null,
): string {
  const off = switches.filter((s) => !s.on);
  if (off.length === 0)
    return 'No tool is switched off by a switch (`toolseam tools --off NAME` switches one off).';
  const lines = ['Switched off (stored in the session database; every toolseam on it leaves them out)'];
  for (const s of off) {
    const by = s.changedBy === undefined ? '' : ` by ${visible(s.changedBy)}`;
    const key = fixed(s.tool);
    const back =
      key === null
        ? `switch on: toolseam tools --on ${visible(s.tool)}`
        : `also kept off by "${key}" in the config`;
    lines.push(`  ${visible(s.tool)}  since ${s.changedAt}${by}; ${back}`);
  }
  return lines.join('\n');
}
