import type { QuarantineRecord, SessionStore, ToolSwitchRecord } from '../../core/session-store.js';
import { nearMiss } from '../../tools/arguments/near-miss.js';
import type { ServedTools } from '../../tools/registry/tool-registry.js';
import type { StoredSwitches } from './stored-switches.js';
import { FixedByConfigError, UnknownToolError } from './switch-errors.js';

/** A person's switch of one tool. */
export interface ToolSwitchRequest {
  /** The tool's real name. */
  readonly tool: string;
  readonly on: boolean;
  /** Who flipped it (`cli`, `page`, …), kept with the switch. */
  readonly by?: string | undefined;
}

/** What a switch did: the stored switch, and the quarantines switching on lifted. */
export interface SwitchedTool {
  readonly switch: ToolSwitchRecord;
  readonly lifted: readonly QuarantineRecord[];
}

/** Every tool name a switch may name: served (on or off), quarantined on any model, or switched before. */
export function knownTools(
  served: Pick<ServedTools, 'tools' | 'switchedOff'>,
  quarantined: readonly QuarantineRecord[],
  switches: StoredSwitches,
): string[] {
  const names = [...served.tools, ...served.switchedOff].map((t) => t.name);
  return [...new Set([...names, ...quarantined.map((q) => q.tool), ...switches.tools()])];
}

/** Refuses a switch of an unknown tool (naming the nearest known one) or of one the config keeps off. */
export function checkSwitch(
  switches: StoredSwitches,
  known: readonly string[],
  request: Pick<ToolSwitchRequest, 'tool' | 'on'>,
): void {
  const { tool, on } = request;
  if (!known.includes(tool)) throw new UnknownToolError(tool, nearMiss(tool, known));
  const fixed = switches.fixedBy(tool);
  if (fixed !== null) throw new FixedByConfigError(tool, fixed, switches.denyPattern(tool), on);
}

/**
 * Stores a person's switch of a tool and applies it here (other processes apply it from their next
 * turn); switching on also lifts the tool's quarantine on every model. An unknown name is refused
 * with the nearest known one, a tool the config keeps off with the key that does.
 */
export async function switchTool(
  store: Pick<SessionStore, 'setToolSwitch' | 'liftQuarantine'>,
  switches: StoredSwitches,
  known: readonly string[],
  request: ToolSwitchRequest,
): Promise<SwitchedTool> {
  const { tool, on } = request;
  checkSwitch(switches, known, request);
  const stored = await store.setToolSwitch({
    tool,
    on,
    ...(request.by === undefined ? {} : { by: request.by }),
  });
  const lifted = on ? await store.liftQuarantine({ tool }) : [];
  await switches.sync();
  return { switch: stored, lifted };
}
