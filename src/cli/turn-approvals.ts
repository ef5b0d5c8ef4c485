import type { ApprovalDecision, ApprovalRequest } from '../core/approval.js';
import type { RuntimeEvent } from '../core/events.js';
import { answerWords, describeApproval, oneLineOf } from './event-printer.js';
import type { QuestionQueue } from './question-queue.js';
import { visible } from './visible-text.js';

/** How an answer given at the terminal reaches the runtime (`Runtime.respond`). */
export type RespondToApproval = (
  approvalId: string,
  decision: ApprovalDecision,
  options: { digest: string; answeredBy: string },
) => Promise<unknown>;

type Resolution = Extract<RuntimeEvent, { type: 'approval-resolved' }>['decision'];

interface OpenApproval {
  readonly controller: AbortController;
  shown: boolean;
  answeredHere: boolean;
}

/**
 * The approval requests of one chat turn (its own and its subagent leaves'): put to the person one at
 * a time, and taken off the screen when they end some other way (another terminal, the timeout, a stop).
 */
export class TurnApprovals {
  private readonly open = new Map<string, OpenApproval>();

  /**
   * `asks` is where the questions and everything about them are written: stdout, where the answer
   * goes, not stderr with the diagnostics (hidden by `2>/dev/null`, a question must not be).
   * `inputClosed` is told when nobody can answer here: the input closed (Ctrl-D) while a request waits
   * for its answer (`closed`), or there are no questions to put (`none`: no terminal to ask on).
   * Without it, a request nobody here can answer is shown with how to answer it from elsewhere.
   */
  constructor(
    private readonly respond: RespondToApproval,
    private readonly questions: QuestionQueue | undefined,
    private readonly asks: NodeJS.WritableStream,
    private readonly inputClosed?: (request: ApprovalRequest, why: 'closed' | 'none') => void,
  ) {}

  /** An `approval-request` arrived: queue its question (or, with nobody at the keyboard, say how to answer it). */
  request(request: ApprovalRequest): void {
    if (!this.questions) {
      this.asks.write(`${describeApproval(request)}\n`);
      if (this.inputClosed) this.inputClosed(request, 'none');
      else this.asks.write(`${waitingHint(request)}\n`);
      return;
    }
    const entry: OpenApproval = { controller: new AbortController(), shown: false, answeredHere: false };
    this.open.set(request.id, entry);
    void this.ask(this.questions, request, entry);
  }

  /** An `approval-resolved` arrived: a question still waiting for that approval is withdrawn. */
  resolved(approvalId: string, decision: Resolution): void {
    const entry = this.open.get(approvalId);
    if (!entry) return;
    this.open.delete(approvalId);
    if (entry.shown && !entry.answeredHere) {
      this.asks.write(`\n  (approval ${visible(approvalId)} is no longer waiting: ${endedHow(decision)})\n`);
    }
    entry.controller.abort();
  }

  /** The turn ended: every question still open is withdrawn, so the next prompt gets the next line. */
  close(): void {
    for (const entry of this.open.values()) entry.controller.abort();
    this.open.clear();
  }

  private async ask(questions: QuestionQueue, request: ApprovalRequest, entry: OpenApproval): Promise<void> {
    const signal = entry.controller.signal;
    const offered = request.always !== undefined;
    const prompt = offered ? '  allow? [y]es / [n]o / [a]lways: ' : '  allow? [y]es / [n]o: ';
    const reply = await questions.ask(prompt, {
      signal,
      fresh: true,
      before: () => {
        entry.shown = true;
        this.asks.write(`${describeApproval(request)}\n`);
      },
      again: (line) => {
        const decision = decisionOf(line);
        if (decision !== undefined && (offered || !isAlways(decision))) return false;
        this.asks.write(`  ${decision === undefined ? notAnAnswer(line) : ALWAYS_NOT_OFFERED}\n`);
        return true;
      },
    });
    if (signal.aborted) return;
    const decision = reply === undefined ? undefined : decisionOf(reply);
    if (decision === undefined) {
      // the input closed before the question showed: what waits is said before how to answer it
      if (!entry.shown) this.asks.write(`${describeApproval(request)}\n`);
      if (this.inputClosed) this.inputClosed(request, 'closed');
      else this.asks.write(`\n${waitingHint(request)}\n`);
      return;
    }
    entry.answeredHere = true;
    try {
      await this.respond(request.id, decision, { digest: request.digest, answeredBy: 'terminal' });
    } catch (error) {
      this.asks.write(`  (${visible((error as Error).message)})\n`);
    }
  }
}

const ALWAYS_NOT_OFFERED =
  '("always" is not offered for this question: type y to run this call once, or n to refuse it)';

function isAlways(decision: ApprovalDecision): boolean {
  return decision.kind === 'approve' && decision.always !== undefined;
}

function waitingHint(request: ApprovalRequest): string {
  const answer = `toolseam approve ${visible(request.id)} ${answerWords(request)}`;
  return `  waiting: answer it with \`${answer}\` from another terminal`;
}

/**
 * y / yes, a / always, n / no or an empty line (a full stop or ! after one is fine); a reply that starts
 * with n / no and goes on ("no, use notes.md") refuses with those words as the reason. Anything else
 * ("yes please", "sure") is no answer: undefined, so it is asked again rather than guessed.
 */
function decisionOf(typed: string): ApprovalDecision | undefined {
  const text = typed.trim();
  const word = text.toLowerCase().replace(/[.!]+$/, '');
  if (word === 'a' || word === 'always') return { kind: 'approve', always: 'session' };
  if (word === 'y' || word === 'yes') return { kind: 'approve' };
  if (word === '' || word === 'n' || word === 'no') return { kind: 'deny' };
  if (/^no?\b/i.test(text)) return { kind: 'deny', reason: text };
  return undefined;
}

/** What the person is told when a reply is not one of the answers. */
function notAnAnswer(reply: string): string {
  return (
    `("${oneLineOf(reply, 60)}" is not an answer: type y, n or a; ` +
    'to refuse with a reason, start with no, as in "no, use notes.md")'
  );
}

function endedHow(decision: Resolution): string {
  if (decision === 'expired') return 'nobody answered in time';
  if (decision === 'cancelled') return 'the turn stopped';
  return decision.kind === 'approve' ? 'approved elsewhere' : 'denied elsewhere';
}
