import { parseArgs } from 'node:util';
import type { ApprovalDecision } from '../core/approval.js';
import { InputError } from '../core/errors.js';
import { type ApprovalRecord, type GrantRecord, isPastDeadline } from '../core/session-records.js';
import type { SessionStore } from '../core/session-store.js';
import { ApprovalClosedError } from '../core/store-errors.js';
import { servingModel } from '../mcp-surface/serving-model.js';
import { turnToResume } from '../runtime/resume/leaf-turns.js';
import { ownerAlive } from '../runtime/resume/turn-owner.js';
import { openStore } from '../store/index.js';
import { answeredElsewhere, approveCommandAnswerer } from './answered-elsewhere.js';
import { refuseUnrunnableApproval } from './approved-tool.js';
import type { Command } from './command.js';
import { absoluteDatabase, existingDatabaseFrom, noDatabaseYet } from './config-flags.js';
import { printEvent } from './event-printer.js';
import { type ResumedTurn, runtimeForResumedTurn } from './resumed-runtime.js';
import { RUNTIME_FLAGS, VERBOSE_HELP } from './runtime-flags.js';
import { TurnApprovals } from './turn-approvals.js';
import { visible, visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam approve ID yes|no|always [--reason TEXT] [--db FILE|URL] [--config FILE]
       [--provider P] [--model M] [--base-url URL] [--verbose]

Answers a waiting approval from any terminal. yes runs the call once; always runs it and, from
then on in the approval's session, the calls its "always:" line names (\`toolseam sessions\` shows it;
\`toolseam grants\` lists and withdraws what "always" granted). When the process that asked is still
running, it goes on by itself; when it stopped (a crash, a closed terminal), this command resumes the
turn and prints its answer. When another answer got there first, it says which, and where the turn
goes on. The turn goes on with the provider, model and base URL it started on, as the
session database recorded them: --provider, --model and --base-url may repeat those but a different
value is refused (the key and other settings come from the environment and the config). It also goes
on in the folder and with the config file it ran with, wherever this command runs: --config may
repeat that file but not name another, and a yes is refused, unanswered, when the call's tool does
not load there. The database (a SQLite file, or a postgres:// URL) is --db, else "db" in the config (--config FILE or ./toolseam.json),
else $TOOLSEAM_DB, else the default; a file named one of these ways must exist (toolseam chat
creates it).
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
  if (!db.exists) throw new InputError(`there is no approval ${id}: ${noDatabaseYet(db)}.`);
  // absolute before anything may move this process into the turn's own folder
  const path = absoluteDatabase(db.path);
  const found = await readApproval(path, id);
  const { record, turn, resumed } = found;
  const askerAlive = turn !== undefined && ownerAlive(turn);
  // Answered, past its deadline, or its process still runs: the store's answer is all there is to do.
  if (record.status !== 'pending' || isPastDeadline(record) || askerAlive) {
    const store = await openStore(path);
    try {
      const answered = await answerOrSayWhoWon(store, id, decision, record);
      if (answered === undefined) return 0;
      process.stderr.write(`${visible(answered.tool)}: ${answered.status}\n`);
      const grant = await grantOf(store, answered);
      if (grant) process.stderr.write(`${grantLine(grant)}\n`);
      if (askerAlive) process.stderr.write(`${goesOn(turn)}\n`);
      return 0;
    } finally {
      await store.close();
    }
  }
  // Everything the resumed turn needs (its config, folder, model, tools) is found before the answer is
  // written: an answer is final, and a yes that then cannot run would be a lie.
  const { runtime, setup } = await runtimeForResumedTurn(values, found.resumedTurn, path);
  try {
    if (decision.kind === 'approve') {
      const where = setup.config.file ? `the config ${setup.config.file}` : 'no config file';
      await refuseUnrunnableApproval(runtime, record, where);
    }
    const store = runtime.options.store;
    const answered = await answerOrSayWhoWon(store, id, decision, record);
    if (answered === undefined) return 0;
    process.stderr.write(`${visible(answered.tool)}: ${answered.status}\n`);
    const grant = await grantOf(store, answered);
    if (grant) process.stderr.write(`${grantLine(grant)}\n`);
    const state = { midLine: false };
    let status = 'done';
    // A further question is shown whole (call, arguments, how to answer it) on stdout, as resume shows it.
    const approvals = new TurnApprovals(
      (approvalId, answer, options) => runtime.respond(approvalId, answer, options),
      undefined,
      process.stdout,
    );
    for await (const event of await runtime.resumeTurn(resumed)) {
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

/** What happens next with an approval whose asker still runs: a turn goes on, an MCP client calls again. */
function goesOn(turn: { readonly owner?: string | undefined; readonly model?: string | undefined }): string {
  if (turn.model === servingModel.model) {
    return `the MCP client that asked gets it when it makes the same call again (toolseam mcp-serve, ${turn.owner}).`;
  }
  return `the turn goes on in the process that asked (${turn.owner}).`;
}

/** The approval, its turn and the turn a yes resumes (a leaf's resumes its batch through the parent's turn). */
async function readApproval(db: string, id: string) {
  const store = await openStore(db);
  try {
    const record = await store.getApproval(id);
    if (!record) {
      throw new InputError(`there is no approval ${id}; \`toolseam sessions\` lists the waiting ones.`);
    }
    const turn = await store.getTurn(record.turnId);
    const resumed = await turnToResume(store, record.turnId);
    const resumedTurn: ResumedTurn = (await store.getTurn(resumed)) ?? {
      id: resumed,
      sessionId: record.sessionId,
    };
    return { record, turn, resumed, resumedTurn };
  } finally {
    await store.close();
  }
}

/**
 * Writes the answer; when another answer got there first (another terminal, the chat itself) or the
 * approval closed, says which answer won and what the turn is doing now, rather than advise a resume
 * another process is already doing. Undefined when that answer was this one (nothing was lost).
 */
async function answerOrSayWhoWon(
  store: SessionStore,
  id: string,
  decision: ApprovalDecision,
  record: ApprovalRecord,
): Promise<ApprovalRecord | undefined> {
  try {
    return await store.answerApproval(id, decision, {
      digest: record.digest,
      answeredBy: approveCommandAnswerer(),
    });
  } catch (error) {
    if (!(error instanceof ApprovalClosedError)) throw error;
    const { message, same } = await answeredElsewhere(store, id, decision);
    if (!same) throw new InputError(message);
    process.stderr.write(`${message}\n`);
    return undefined;
  }
}

/** The standing permission an "always" answer gave, if it gave one. */
async function grantOf(store: SessionStore, answered: ApprovalRecord): Promise<GrantRecord | undefined> {
  return (await store.listGrants({ sessionId: answered.sessionId, tool: answered.tool })).find(
    (g) => g.approvalId === answered.id,
  );
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
