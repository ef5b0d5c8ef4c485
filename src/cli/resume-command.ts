import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import { FINAL_TURN_STATES, type TurnRecord } from '../core/session-records.js';
import { resumableTurns } from '../runtime/resume/leaf-turns.js';
import { openStore } from '../store/index.js';
import type { Command } from './command.js';
import { absoluteDatabase, existingDatabaseFrom, noDatabaseYet } from './config-flags.js';
import { oneLineOf, printEvent } from './event-printer.js';
import { runtimeForResumedTurn } from './resumed-runtime.js';
import { RUNTIME_FLAGS, VERBOSE_HELP } from './runtime-flags.js';
import { TurnApprovals } from './turn-approvals.js';
import { visible, visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam resume [TURN_ID] [--db FILE|URL] [--config FILE] [--provider P] [--model M] [--base-url URL]
       [--verbose]

Takes over a turn whose process stopped before it finished (a crash, a closed terminal): answers
what was decided meanwhile, shows again each approval still waiting (the call, its arguments and the
\`toolseam approve\` line that answers it from another terminal), finishes a subagent batch's unfinished
leaves (finished ones are kept), then lets the model continue. Without an id it lists the turns it can
resume.
The turn goes on with the provider, model and base URL it started on, as the session database
recorded them: the model flags may repeat those but a different value is refused. It goes on in the
folder and with the config file it ran with too (--config may repeat that file, not name another).
The database (a SQLite file, or a postgres:// URL) is --db, else "db" in the config (--config FILE or ./toolseam.json), else $TOOLSEAM_DB,
else the default; a file named one of these ways must exist (toolseam chat creates it).
${VERBOSE_HELP}`;

/** `toolseam resume [TURN_ID]`: continues an interrupted turn. */
export const resumeCommand: Command = async (argv) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...RUNTIME_FLAGS, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [turnId, ...more] = positionals;
  if (more.length > 0) {
    throw new InputError(
      `resume takes one turn id at a time, not "${positionals.join(' ')}"; resume each turn on its own.`,
    );
  }
  // Listing and a wrong id need only the store: no model, and no empty database made from a typo.
  const db = existingDatabaseFrom(values);
  if (!db.exists) {
    if (turnId !== undefined) throw new InputError(`there is no turn ${turnId}: ${noDatabaseYet(db)}.`);
    process.stdout.write(`no interrupted turns: ${noDatabaseYet(db)}\n`);
    return 0;
  }
  // absolute before anything may move this process into the turn's own folder
  const path = absoluteDatabase(db.path);
  const store = await openStore(path);
  let ran: TurnRecord;
  try {
    if (turnId === undefined) {
      const turns = await resumableTurns(store);
      if (turns.length === 0) process.stdout.write('no interrupted turns\n');
      for (const t of turns)
        process.stdout.write(
          `${visible(t.id)}  session ${visible(t.sessionId)}  "${oneLineOf(t.userText, 60)}"\n`,
        );
      return 0;
    }
    const turn = await store.getTurn(turnId);
    if (!turn) {
      throw new InputError(`there is no turn ${turnId}; \`toolseam resume\` lists the interrupted ones.`);
    }
    // An ended turn is told as such before any model is looked for (it would never be asked).
    if (FINAL_TURN_STATES.includes(turn.status)) {
      throw new InputError(
        `turn ${turnId} has already ended (${turn.status}); \`toolseam chat --session ${turn.sessionId}\` goes on in its session.`,
      );
    }
    ran = turn;
  } finally {
    await store.close();
  }
  // The turn's own config, folder and model, or a refusal, before anything is taken over or answered.
  const { runtime } = await runtimeForResumedTurn(values, ran, path);
  try {
    const state = { midLine: false };
    let status = 'done';
    // nobody answers here: each request is shown (call, arguments, id) with how to answer it elsewhere,
    // on stdout with the answer, so that hiding the diagnostics does not hide what the turn waits for
    const approvals = new TurnApprovals(
      (id, decision, options) => runtime.respond(id, decision, options),
      undefined,
      process.stdout,
    );
    for await (const event of await runtime.resumeTurn(turnId)) {
      printEvent(event, { out: process.stdout, info: process.stderr }, state);
      if (event.type === 'approval-request') approvals.request(event.request);
      if (event.type === 'turn-end') {
        status = event.status;
        if (event.status !== 'done') process.stderr.write(`${visibleLines(event.message)}\n`);
      }
    }
    return status === 'done' ? 0 : 1;
  } finally {
    await runtime.close();
  }
};
