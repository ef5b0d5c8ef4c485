import { quotedList, type ToolSchemaRejected } from '../core/errors.js';
import type { TurnContext } from './turn-context.js';
import type { TurnTools } from './turn-tools.js';

/**
 * Leaves the refused tools out of the rest of the turn when each was offered only because the model asked
 * for its schema (`tool_schema`) during the turn: what already ran stands, the model goes on without them
 * and the person is told. False when one of them was offered from the turn's start (the turn then ends).
 * A tool left out never comes back this turn, so the same refusal cannot repeat.
 */
export function leaveOutRefused(ctx: TurnContext, turn: TurnTools, rejected: ToolSchemaRejected): boolean {
  const fromStart = new Set(turn.selected.map((t) => t.name));
  const names = rejected.tools.map((t) => t.name);
  if (!names.every((name) => ctx.activated.has(name) && !fromStart.has(name))) return false;
  for (const name of names) {
    ctx.activated.delete(name);
    ctx.refused.add(name);
  }
  const several = names.length > 1;
  const said = rejected.said ? ` (${rejected.said})` : '';
  ctx.emit({
    type: 'notice',
    message:
      `The model provider refused the definition${several ? 's' : ''} toolseam sent for the ${quotedList(names)} tool${several ? 's' : ''}${said}, ` +
      `which the model asked for during this turn; the turn goes on without ${several ? 'them' : 'it'}. ` +
      `That is a bug in how ${several ? 'those tools are' : 'that tool is'} defined, not something you did.`,
  });
  return true;
}

/** The system note telling the model which tools were refused this turn ('' when none were). */
export function refusedToolsNote(ctx: TurnContext): string {
  if (ctx.refused.size === 0) return '';
  const names = [...ctx.refused].map((name) => ctx.surface.byName.get(name)?.wireName ?? name);
  const several = names.length > 1;
  return (
    `[refused tools] The model provider refused the definition${several ? 's' : ''} of ${quotedList(names)}, ` +
    `so ${several ? 'they are' : 'it is'} not offered for the rest of this turn. Do not call or ask for ${several ? 'them' : 'it'} again; ` +
    'do what you can without, and tell the user what could not be done.'
  );
}
