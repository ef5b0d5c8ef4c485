import { createInterface, type Interface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import type { ApprovalRequest } from '../core/approval.js';
import { InputError, ToolseamError } from '../core/errors.js';
import type { RuntimeEvent } from '../core/events.js';
import { describeModel, type ModelOrigin, modelDifference } from '../core/turn-model.js';
import type { Runtime, Session } from '../runtime/runtime.js';
import { whenOutputCloses } from './closed-output.js';
import type { Command } from './command.js';
import { printEvent } from './event-printer.js';
import { PastedLines } from './pasted-lines.js';
import { QuestionQueue } from './question-queue.js';
import { RUNTIME_FLAGS, runtimeFromFlags, VERBOSE_HELP } from './runtime-flags.js';
import { TurnApprovals } from './turn-approvals.js';
import { visible, visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam chat [-m TEXT] [--session ID] [--provider NAME] [--model ID] [--base-url URL]
                     [--config FILE] [--db FILE|URL] [--approve ask|auto|deny] [--agent NAME] [--plan]
                     [--verbose]

Talks to the configured model with every configured tool. Interactive by default (on a terminal,
text pasted over several lines is one message, sent with Enter): answers stream, tool calls show as
they run, calls that need approval ask y / n / always ("no, …" tells the model why; any other reply
is asked again). Ctrl-C stops the turn; Ctrl-D leaves (at an approval question: at once, exit 1,
the turn left waiting for \`toolseam approve\`).
  -m TEXT       send one message, print the answer and exit (0 done, 1 refused or failed)
  --session ID  continue a session (see \`toolseam sessions\`) on the model the flags or config name
  --approve     ask (default), auto (approve every call) or deny (refuse every call that asks)
  --plan        plan mode: only read-only tools run
  --db FILE|URL the session database: a SQLite file, or a postgres:// URL for a PostgreSQL store
${VERBOSE_HELP}`;

/** `toolseam chat`: the assistant in a terminal. */
export const chatCommand: Command = async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...RUNTIME_FLAGS,
      message: { type: 'string', short: 'm' },
      session: { type: 'string' },
      agent: { type: 'string' },
      plan: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  checkNotEmpty(values);
  const interactive = values.message === undefined;
  const tty = process.stdin.isTTY === true;
  // What the person answers (the next message, approvals, ask_user) is asked on stdout; stderr is for
  // diagnostics, which `2>/dev/null` may hide without hiding a question the turn waits on.
  const rl =
    interactive || tty ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
  // Every question (approvals, ask_user, the next message) goes through one queue: readline ignores a
  // second question while one is pending, which would leave a prompt that never answers.
  // On a terminal, a message pasted over several lines is one message, not one per line.
  const pasted =
    interactive && tty && rl?.terminal ? new PastedLines(process.stdin, process.stdout, rl) : undefined;
  const questions = rl ? new QuestionQueue(rl, process.stdout, pasted) : undefined;
  const askUser = questions
    ? async (question: string, choices: readonly string[] | undefined, signal: AbortSignal) => {
        const hint = choices?.length ? ` (${choices.join(' / ')})` : '';
        return (await questions.ask(`\n? ${question}${hint}\n> `, { signal }))?.trim();
      }
    : undefined;
  let runtime: Runtime;
  try {
    runtime = await runtimeFromFlags(values, askUser ? { askUser } : {});
  } catch (error) {
    pasted?.close();
    rl?.close();
    throw error;
  }
  try {
    if (values.session !== undefined && !(await runtime.options.store.getSession(values.session))) {
      throw new InputError(
        `there is no session ${values.session}; \`toolseam sessions\` lists them (leave out --session to start a new one).`,
      );
    }
    const stored =
      values.session === undefined ? undefined : await runtime.options.store.getSession(values.session);
    checkAgent(values.agent ?? stored?.agent, runtime.options.agents ?? {});
    const { provider, model } = runtime.options.model;
    if (stored) noteModelMove(stored, { provider, model });
    const session = await runtime.session(values.session, {
      ...(values.agent ? { agent: values.agent } : {}),
      ...(values.plan ? { mode: 'plan' as const } : {}),
    });
    if (!interactive) return await oneShot(runtime, session, values.message as string, rl, questions);
    return await converse(runtime, session, rl as Interface, questions as QuestionQueue);
  } finally {
    pasted?.close();
    rl?.close();
    await runtime.close();
  }
};

/** Refuses an empty -m or --session before anything (a runtime, the database file) is created. */
function checkNotEmpty(values: { readonly message?: string; readonly session?: string }): void {
  if (values.message?.trim() === '') {
    throw new InputError('-m needs a message to send: put the text after -m, or leave out -m to chat.');
  }
  if (values.session?.trim() === '') {
    throw new InputError(
      '--session needs a session id; `toolseam sessions` lists them (leave out --session to start a new one).',
    );
  }
}

/** Says on stderr when a continued session goes on with another model than it was on (flags or config chose it). */
function noteModelMove(stored: ModelOrigin & { readonly id: string }, now: ModelOrigin): void {
  if (stored.model === undefined || modelDifference(stored, now) === undefined) return;
  process.stderr.write(
    `session ${visible(stored.id)} was on ${describeModel(stored)}; it goes on with ${describeModel(now)}, as the model flags or the config say.\n`,
  );
}

/** Refuses an agent the config does not define before a session or turn is started for it. */
function checkAgent(agent: string | undefined, agents: Readonly<Record<string, unknown>>): void {
  if (agent === undefined || Object.hasOwn(agents, agent)) return;
  const names = Object.keys(agents);
  const known = names.length
    ? `the configured agents are ${names.join(', ')}`
    : 'the config defines none (add one under "agents" in toolseam.json)';
  throw new InputError(`there is no agent "${agent}"; ${known}.`);
}

async function oneShot(
  runtime: Runtime,
  session: Session,
  text: string,
  rl: Interface | undefined,
  questions: QuestionQueue | undefined,
): Promise<number> {
  const interrupts = onInterrupt(session, rl);
  interrupts.turnStarts();
  try {
    const end = await runTurn(runtime, session, text, questions);
    if (end.status === 'done') return 0;
    process.stderr.write(`${visibleLines(end.message)}\n`);
    return 1;
  } finally {
    interrupts.release();
  }
}

async function converse(
  runtime: Runtime,
  session: Session,
  rl: Interface,
  questions: QuestionQueue,
): Promise<number> {
  process.stderr.write(
    `toolseam chat — session ${visible(session.id)} (Ctrl-C stops a turn, Ctrl-D leaves)\n`,
  );
  const interrupts = onInterrupt(session, rl);
  try {
    for (;;) {
      const text = await questions.ask('\n> ', { whole: true });
      if (text === undefined || interrupts.outputClosed) return 0; // the input closed (Ctrl-D), or nobody reads the output
      if (text.trim() === '') continue;
      interrupts.turnStarts();
      try {
        const end = await runTurn(runtime, session, text, questions);
        if (end.status !== 'done') process.stderr.write(`${visibleLines(end.message)}\n`);
      } catch (error) {
        // The message could not start a turn (another process runs the session's turn, the database
        // stayed locked): say why and take the next message, as after a turn that failed.
        if (!(error instanceof ToolseamError)) throw error;
        process.stderr.write(`${visibleLines(error.message)}\n`);
      } finally {
        interrupts.turnEnds();
      }
      if (interrupts.outputClosed) return 0;
    }
  } finally {
    interrupts.release();
  }
}

/**
 * Ctrl-C for a chat: during a turn the first stops it and a second leaves without waiting; between
 * turns it closes the input. On a terminal readline takes Ctrl-C as a key (its 'SIGINT'); with piped
 * input it arrives as the signal, which would otherwise end the process with the turn unfinished.
 * An output closed by its reader (`toolseam chat | head`) stops the turn too, and the chat leaves after it.
 */
function onInterrupt(session: Session, rl: Interface | undefined) {
  let busy = false;
  let stopping = false;
  let outputClosed = false;
  const interrupt = (): void => {
    if (!busy) {
      rl?.close();
      return;
    }
    if (stopping) {
      process.stderr.write('\n(left without waiting; `toolseam resume` lists the interrupted turn)\n');
      rl?.close();
      process.exit(130);
    }
    stopping = true;
    process.stderr.write('\n(stopping the turn; press Ctrl-C again to leave without waiting)\n');
    session.stop();
  };
  const closed = (): void => {
    outputClosed = true;
    if (!busy) {
      rl?.close();
      return;
    }
    if (stopping) return;
    stopping = true;
    process.stderr.write('\n(the output was closed: stopping the turn)\n');
    session.stop();
  };
  rl?.on('SIGINT', interrupt);
  process.on('SIGINT', interrupt);
  const unsetClosed = whenOutputCloses(closed);
  return {
    /** True once nobody reads the output: no further turn is started. */
    get outputClosed(): boolean {
      return outputClosed;
    },
    turnStarts(): void {
      busy = true;
      stopping = false;
    },
    turnEnds(): void {
      busy = false;
    },
    release(): void {
      rl?.off('SIGINT', interrupt);
      process.off('SIGINT', interrupt);
      unsetClosed();
    },
  };
}

/**
 * Nobody can answer an approval here: the input closed (Ctrl-D) while it waits, or `-m` runs with no
 * terminal to ask on. The chat leaves at once, exit 1, and the turn stays unfinished in the store, where
 * `toolseam approve` answers it and takes it over (closing the runtime would end it as stopped instead).
 * Waiting out the approval's timeout for an answer nobody can type here, or declining for the person,
 * would each pass for an answer they never gave.
 */
function leaveWaiting(timeoutMs: number) {
  return (request: ApprovalRequest, why: 'closed' | 'none'): never => {
    const id = visible(request.id);
    const cause = why === 'closed' ? 'input closed' : 'no terminal to ask on: standard input is not one';
    const minutes = Math.max(1, Math.round(timeoutMs / 60_000));
    // how to answer the question shown above, so it goes where the question went
    process.stdout.write(
      `\n(${cause}: leaving with the turn waiting for approval ${id}; ` +
        `\`toolseam approve ${id} yes|no|always\` answers it from any terminal within ${minutes} min and resumes the turn` +
        `${why === 'none' ? '; to run -m with nobody to ask, pass --approve auto (every call runs) or --approve deny (every call that asks is refused)' : ''})\n`,
    );
    process.exit(1);
  };
}

/** Runs one turn, printing its events and putting approval requests to the person one at a time. */
async function runTurn(
  runtime: Runtime,
  session: Session,
  text: string,
  questions: QuestionQueue | undefined,
): Promise<Extract<RuntimeEvent, { type: 'turn-end' }>> {
  const state = { midLine: false };
  const streams = { out: process.stdout, info: process.stderr };
  const approvals = new TurnApprovals(
    (id, decision, options) => runtime.respond(id, decision, options),
    questions,
    process.stdout,
    leaveWaiting(runtime.options.approvals?.timeoutMs ?? 300_000),
  );
  let end: Extract<RuntimeEvent, { type: 'turn-end' }> | undefined;
  try {
    for await (const event of await session.send(text)) {
      printEvent(event, streams, state);
      if (event.type === 'approval-request') approvals.request(event.request);
      if (event.type === 'approval-resolved') approvals.resolved(event.approvalId, event.decision);
      if (event.type === 'turn-end') {
        approvals.close();
        end = event;
      }
    }
  } finally {
    approvals.close();
  }
  return end as Extract<RuntimeEvent, { type: 'turn-end' }>;
}
