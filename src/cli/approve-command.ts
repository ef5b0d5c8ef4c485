import { parseArgs } from 'node:util';
import type { ApprovalDecision } from '../core/approval.js';
import { InputError } from '../core/errors.js';
import { FINAL_TURN_STATES, isPastDeadline, type TurnRecord } from '../core/session-records.js';
import { ApprovalClosedError } from '../core/store-errors.js';
import type { ModelOrigin } from '../core/turn-model.js';
import { turnToResume } from '../runtime/leaf-turns.js';
import { ownerAlive } from '../runtime/turn-owner.js';
import { openSessionStore } from '../store/index.js';
import type { Command } from './commands.js';
import { configFromFlags, existingDatabaseFrom } from './config-flags.js';
import { printEvent } from './event-printer.js';
import { resumedModelFrom } from './resumed-model.js';
import { RUNTIME_FLAGS, runtimeFromFlags, VERBOSE_HELP } from './runtime-flags.js';
import { visible, visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam approve ID yes|no|always [--reason TEXT] [--db FILE] [--config FILE]
       [--provider P] [--model M] [--base-url URL] [--verbose]

Answers a waiting approval from any terminal. When the process that asked is still running, it
goes on by itself; when it stopped (a crash, a closed terminal), this command resumes the turn and
prints its answer. The turn goes on with the provider, model and base URL it started on, as the
session database recorded them: --provider, --model and --base-url may repeat those but a different
value is refused (the key and other settings come from the environment and the config). The
database is --db, else "db" in the config (--config FILE or ./toolseam.json), else $TOOLSEAM_DB,
else the default; a file named one of these ways must exist (toolseam chat creates it).
${VERBOSE_HELP}`;

/** `toolseam approve ID yes|no|always`: answers an approval, resuming its turn when its process is gone. */
export const approveCommand: Command = async (argv) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...RUNTIME_FLAGS, reason: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [id, word, ...more] = positionals;
  if (!id || !word)
    throw new InputError('give the approval id and yes, no or always, e.g. `toolseam approve ap-123 yes`.');
  // Words after the answer would be dropped unread: a reason typed there must not vanish.
  if (more.length > 0) {
    throw new InputError(
      `approve takes an approval id and one answer, but "${more.join(' ')}" followed; a reason for no goes in --reason, e.g. \`toolseam approve ${id} no --reason "${more.join(' ')}"\`.`,
    );
  }
  const decision = decisionOf(word, values.reason);
  const db = existingDatabaseFrom(values);
  // The answer is final: a missing (or contradicted) model must be found before it is written, not after.
  const { resumed, ran, turn, answered } = answerInStore(db, id, decision, (asking, ran) => {
    if (!(asking && ownerAlive(asking))) resumedModelFrom(values, configFromFlags(values), ran);
  });
  process.stderr.write(`${visible(answered.tool)}: ${answered.status}\n`);
  if (turn && ownerAlive(turn)) {
    process.stderr.write(`the turn goes on in the process that asked (${turn.owner}).\n`);
    return 0;
  }
  const runtime = await runtimeFromFlags(values, {
    model: (config) => resumedModelFrom(values, config, ran),
  });
  try {
    const state = { midLine: false };
    let status = 'done';
    for await (const event of runtime.resumeTurn(resumed)) {
      printEvent(event, { out: process.stdout, info: process.stderr }, state);
      if (event.type === 'approval-request') {
        process.stderr.write(
          `another approval is waiting: toolseam approve ${visible(event.request.id)} yes|no|always\n`,
        );
      }
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

/** Records the answer in the store, closed again whatever happens. */
function answerInStore(
  db: string | undefined,
  id: string,
  decision: ApprovalDecision,
  beforeAnswer: (turn: TurnRecord | undefined, ran: ModelOrigin) => void,
) {
  const store = openSessionStore(db ? { path: db } : {});
  try {
    const record = store.getApproval(id);
    if (!record) {
      throw new InputError(`there is no approval ${id}; \`toolseam sessions\` lists the waiting ones.`);
    }
    const turn = store.getTurn(record.turnId);
    // A leaf's approval resumes its whole batch, through the parent's turn (and on its model).
    const resumed = turnToResume(store, record.turnId);
    const resumedTurn = store.getTurn(resumed);
    const ran: ModelOrigin = resumedTurn ?? {};
    // One that can no longer be answered is refused by the store below, model or not.
    if (record.status === 'pending' && !isPastDeadline(record)) beforeAnswer(turn, ran);
    try {
      const answered = store.answerApproval(id, decision, { digest: record.digest, answeredBy: 'cli' });
      return { resumed, ran, turn, answered };
    } catch (error) {
      const open = turn !== undefined && !FINAL_TURN_STATES.includes(turn.status);
      if (error instanceof ApprovalClosedError && open && !ownerAlive(turn)) {
        throw new InputError(`${error.message} \`toolseam resume ${turn.id}\` lets the model go on.`);
      }
      throw error;
    }
  } finally {
    store.close();
  }
}

/** The answer `word` gives; a --reason goes with no only (the model reads it), so with yes it is refused, not dropped. */
function decisionOf(word: string, reason: string | undefined): ApprovalDecision {
  const answer = word.toLowerCase();
  if (reason !== undefined && ['yes', 'y', 'always', 'a'].includes(answer)) {
    throw new InputError(`--reason goes with no (it tells the model why); leave it out to answer ${word}.`);
  }
  switch (answer) {
    case 'yes':
    case 'y':
      return { kind: 'approve' };
    case 'always':
    case 'a':
      return { kind: 'approve', always: 'session' };
    case 'no':
    case 'n':
      return reason ? { kind: 'deny', reason } : { kind: 'deny' };
    default:
      throw new InputError(`answer yes, no or always, not "${word}".`);
  }
}
