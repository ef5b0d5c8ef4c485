import { quotedList, type ToolSchemaRejected } from '../../core/errors.js';
import type { TurnEnvironment } from './turn-environment.js';
import type { TurnState } from './turn-state.js';

/** True when a rejection may quarantine its tools: the provider itself points at each, and none is core. */
export function mayQuarantine(rejected: ToolSchemaRejected): boolean {
  return rejected.attributed && rejected.canTurnOff;
}

/**
 * Quarantines the tools of a rejection for this provider and model: kept in the store, so later turns
 * of any session on this model do not offer them until a person lifts it; left out of the rest of this
 * turn; and told to the person (a `tools-quarantined` event) and, through the system note, the model.
 * `turnGoesOn` says whether this turn sends its request again without them. A store that cannot keep
 * the quarantine still leaves the tools out of this turn (and says so in the log).
 */
export async function quarantineRejected(
  env: TurnEnvironment,
  state: TurnState,
  rejected: ToolSchemaRejected,
  turnGoesOn: boolean,
): Promise<void> {
  const names = rejected.tools.map((t) => t.name);
  const said = rejected.said ?? '';
  const { provider, model } = env.model;
  try {
    await env.store.quarantineTools({
      provider,
      model,
      tools: names,
      said,
      sessionId: env.sessionId,
      turnId: env.turnId,
    });
  } catch (error) {
    const message = `could not keep the quarantine of ${names.join(', ')} in the store: ${(error as Error).message}`;
    env.logger.log({ level: 'warn', scope: 'runtime', message, fields: { provider, model, tools: names } });
  }
  for (const name of names) {
    state.quarantined.set(name, said);
    state.refused.add(name);
    state.activated.delete(name);
  }
  env.emit({
    type: 'tools-quarantined',
    provider,
    model,
    tools: names,
    said,
    turnGoesOn,
    message: quarantineSentence(names, said, { provider, model }, turnGoesOn),
  });
}

/** What the person reads when tools are quarantined. */
function quarantineSentence(
  names: readonly string[],
  said: string,
  on: { readonly provider: string; readonly model: string },
  turnGoesOn: boolean,
): string {
  const several = names.length > 1;
  const it = several ? 'them' : 'it';
  const quoted = said ? ` (${said})` : '';
  const now = turnGoesOn
    ? `toolseam left ${it} out and sent the request once more without ${it}`
    : `toolseam left ${it} out`;
  const lift = names.map((n) => `\`toolseam tools --on ${n}\``).join(', ');
  return (
    `The model provider refused the definition${several ? 's' : ''} toolseam sent for the ${quotedList(names)} tool${several ? 's' : ''}${quoted}. ` +
    `${now}; later turns on ${on.provider} model "${on.model}" do not offer ${it} either, until you switch ${it} back on ` +
    `(on the Tools page, or with ${lift}) to try again. ` +
    `That is a bug in how ${several ? 'those tools are' : 'that tool is'} defined, not something you did.`
  );
}

/**
 * How a turn ends when the provider refused tools again after this turn had already sent its request
 * once more without the ones it refused first: never a third request. The tools it refused this time
 * are quarantined too (`quarantined`), so the next turn goes without them.
 */
export function endAfterResend(
  rejected: ToolSchemaRejected,
  resentWithout: readonly string[],
  quarantined: boolean,
): string {
  const earlier = `toolseam had already sent this turn's request once more without ${quotedList(resentWithout)}, which the provider refused first`;
  if (!quarantined) return `${rejected.message} (Earlier, ${earlier}.)`;
  const names = rejected.tools.map((t) => t.name);
  const several = names.length > 1;
  const quoted = rejected.said ? ` (${rejected.said})` : '';
  return (
    `This turn could not run: the model provider refused the definition${several ? 's' : ''} toolseam sent for the ` +
    `${quotedList(names)} tool${several ? 's' : ''}${quoted}, after ${earlier}; it does not send a third. ` +
    `${several ? 'Those are' : 'That one is'} left out for this model now too, so send your message again: the next turn goes without ${several ? 'them' : 'it'} (the Tools page and \`toolseam tools\` list what is left out).`
  );
}
