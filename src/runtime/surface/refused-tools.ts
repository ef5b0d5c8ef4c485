import { quotedList, type ToolSchemaRejected } from '../../core/errors.js';
import { headOf } from '../../core/text-cut.js';
import { isCore } from '../../retrieval/index.js';
import { wireName } from '../../seam/index.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import { META_TOOL_NAMES } from './tool-surface.js';
import type { TurnTools } from './turn-tools.js';

/**
 * True when each refused tool was offered only because the model asked for its schema (`tool_schema`)
 * during the turn; false when one of them was offered from the turn's start.
 */
export function askedMidTurn(state: TurnState, turn: TurnTools, rejected: ToolSchemaRejected): boolean {
  const fromStart = new Set(turn.selected.map((t) => t.name));
  return rejected.tools.every((t) => state.activated.has(t.name) && !fromStart.has(t.name));
}

/**
 * Leaves tools the model asked for mid-turn (see `askedMidTurn`) out of the rest of the turn: what
 * already ran stands and the model goes on without them; the person is told (`notice`, unless a
 * quarantine already told them). A tool left out never comes back this turn, so the same refusal
 * cannot repeat.
 */
export function leaveOutRefused(
  env: TurnEnvironment,
  state: TurnState,
  rejected: ToolSchemaRejected,
  notice = true,
): void {
  const names = rejected.tools.map((t) => t.name);
  for (const name of names) {
    state.activated.delete(name);
    state.refused.add(name);
  }
  if (!notice) return;
  const several = names.length > 1;
  const said = rejected.said ? ` (${rejected.said})` : '';
  env.emit({
    type: 'notice',
    message:
      `The model provider refused the definition${several ? 's' : ''} toolseam sent for the ${quotedList(names)} tool${several ? 's' : ''}${said}, ` +
      `which the model asked for during this turn; the turn goes on without ${several ? 'them' : 'it'}. ` +
      `That is a bug in how ${several ? 'those tools are' : 'that tool is'} defined, not something you did.`,
  });
}

/** How much of the provider's words the system note quotes per tool. */
const NOTE_SAID_CHARS = 200;
/** How many left-out tools the note names one by one (the rest are counted). */
const NOTE_MAX_TOOLS = 12;

/**
 * The system note telling the model which tools are not offered and why ('' when none): those the
 * provider refused this turn, and those quarantined for this model (this turn or before).
 */
export function refusedToolsNote(env: TurnEnvironment, state: TurnState): string {
  const wire = (name: string): string => env.surface.byName.get(name)?.wireName ?? wireName(name);
  const notes: string[] = [];
  const refusedOnly = [...state.refused].filter((name) => !state.quarantined.has(name)).map(wire);
  if (refusedOnly.length > 0) {
    const several = refusedOnly.length > 1;
    notes.push(
      `[refused tools] The model provider refused the definition${several ? 's' : ''} of ${quotedList(refusedOnly)}, ` +
        `so ${several ? 'they are' : 'it is'} not offered for the rest of this turn. Do not call or ask for ${several ? 'them' : 'it'} again; ` +
        'do what you can without, and tell the user what could not be done.',
    );
  }
  if (state.quarantined.size > 0) {
    const all = [...state.quarantined];
    const listed = all.slice(0, NOTE_MAX_TOOLS).map(([name, said]) => {
      const words = said === '' ? '' : ` (the provider said: ${headOf(said, NOTE_SAID_CHARS)})`;
      return `\`${wire(name)}\`${words}`;
    });
    if (all.length > NOTE_MAX_TOOLS) listed.push(`${all.length - NOTE_MAX_TOOLS} more`);
    const several = all.length > 1;
    notes.push(
      `[left-out tools] The model provider refused the definition${several ? 's' : ''} toolseam sent for ${listed.join('; ')}, ` +
        `so toolseam does not offer ${several ? 'them' : 'it'} on this model until the user switches ${several ? 'them' : 'it'} back on (on the Tools page, or with \`toolseam tools --on NAME\`). ` +
        `Do not call or ask for ${several ? 'them' : 'it'}; do what you can without, and tell the user what could not be done and why.`,
    );
  }
  return notes.join('\n\n');
}

/** Maps a wire name of this request back to its tool, and whether the person may switch it off. */
export function rejectedToolOf(
  env: TurnEnvironment,
  wireName: string,
): { name: string; canTurnOff: boolean } | undefined {
  const own = META_TOOL_NAMES.has(wireName) || env.runtimeTools.has(wireName);
  const real = env.surface.wireToReal.get(wireName) ?? (own ? wireName : undefined);
  if (real === undefined) return undefined;
  const def = env.surface.byName.get(real)?.definition;
  const locked = own || def?.core === true || (def?.group?.own === true && isCore({ name: real }));
  return { name: real, canTurnOff: !locked };
}
