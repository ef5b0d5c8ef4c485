import { parseArgs } from 'node:util';
import type { ApprovalDecision } from '../core/approval.js';
import { InputError } from '../core/errors.js';
import { type GrantRecord, isPastDeadline, type TurnRecord } from '../core/session-records.js';
import { ApprovalClosedError } from '../core/store-errors.js';
import type { ModelOrigin } from '../core/turn-model.js';
import { turnToResume } from '../runtime/leaf-turns.js';
import { ownerAlive } from '../runtime/turn-owner.js';
import { openSessionStore } from '../store/index.js';
import { answeredElsewhere, approveCommandAnswerer } from './answered-elsewhere.js';
import type { Command } from './commands.js';
import { configFromFlags, existingDatabaseFrom } from './config-flags.js';
import { answerWords, printEvent } from './event-printer.js';
import { resumedModelFrom } from './resumed-model.js';
import { RUNTIME_FLAGS, runtimeFromFlags, VERBOSE_HELP } from './runtime-flags.js';
import { visible, visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam approve ID yes|no|always [--reason TEXT] [--db FILE] [--config FILE]
       [--provider P] [--model M] [--base-url URL] [--verbose]

Answers a waiting approval from any terminal. yes runs the call once; always runs it and, from
then on in the approval's session, the calls its "always:" line names (\`toolseam sessions\` shows it;
\`toolseam grants\` lists and withdraws what "always" granted). When the process that asked is still
running, it goes on by itself; when it stopped (a crash, a closed terminal), this command resumes the
turn and prints its answer. When another answer got there first, it says which, and where the turn
goes on. The turn goes on with the provider, model and base URL it started on, as the
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
  const outcome = answerInStore(db, id, decision, (asking, ran) => {
    if (!(asking && ownerAlive(asking))) resumedModelFrom(values, configFromFlags(values), ran);
  });
  if ('elsewhere' in outcome) {
    process.stderr.write(`${outcome.elsewhere}\n`);
    return 0;
  }
  const { resumed, ran, turn, answered, grant } = outcome;
  process.stderr.write(`${visible(answered.tool)}: ${answered.status}\n`);
  if (grant) process.stderr.write(`${grantLine(grant)}\n`);
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
          `another approval is waiting: toolseam approve ${visible(event.request.id)} ${answerWords(event.request)}\n`,
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
      const answeredBy = approveCommandAnswerer();
      const answered = store.answerApproval(id, decision, { digest: record.digest, answeredBy });
      const grant = store
        .listGrants({ sessionId: answered.sessionId, tool: answered.tool })
        .find((g) => g.approvalId === id);
      return { resumed, ran, turn, answered, grant };
    } catch (error) {
      // Answered first by someone else (another terminal, the chat itself), or closed: say which answer
      // won and what the turn is doing now, rather than advise a resume another process is already doing.
      if (!(error instanceof ApprovalClosedError)) throw error;
      const { message, same } = answeredElsewhere(store, id, decision);
      if (same) return { elsewhere: message };
      throw new InputError(message);
    }
  } finally {
    store.close();
  }
}

/** What an "always" answer granted, and how to withdraw it. */
function grantLine(grant: GrantRecord): string {
  const covers = grant.scope === undefined ? 'nothing' : visible(grant.scope.summary);
  const where = grant.sessionId === undefined ? 'in every session' : 'in this session';
  return (
    `standing permission ${visible(grant.id)}: ${covers} ${where} without asking ` +
    `(\`toolseam grants --revoke ${visible(grant.id)}\` withdraws it)`
  );
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
