import type { ApprovalRequest } from '../core/approval.js';
import type { RuntimeEvent } from '../core/events.js';
import { alwaysLine } from '../core/grant-scope.js';
import { nestsTooDeep } from '../core/json-depth.js';
import { jsonTextOf } from '../core/json-text-of.js';
import type { ModelRetry } from '../core/model.js';
import { headOf } from '../core/text-cut.js';
import { visible, visibleLines } from './visible-text.js';

/** Where the printer writes: the answer to `out`, everything about tools and approvals to `info`. */
export interface PrinterStreams {
  readonly out: NodeJS.WritableStream;
  readonly info: NodeJS.WritableStream;
}

const MAX_ARGS = 160;

/** Arguments in one short line (control characters shown as escapes), whatever their depth. */
export function shortArgs(args: unknown): string {
  const text = args === undefined ? '' : jsonTextOf(args);
  return visible(text.length > MAX_ARGS ? `${headOf(text, MAX_ARGS - 1)}…` : text);
}

/**
 * `text` on one line (line breaks, tabs and other C0 control characters as spaces, the rest a terminal
 * acts on shown as escapes), cut to `limit`.
 */
export function oneLineOf(text: string, limit: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return visible(flat.length > limit ? `${headOf(flat, limit - 1)}…` : flat);
}

/**
 * The lines a person reads for an approval request. What a server or model chose (the tool's name, the
 * leaf's title, the arguments) has its control characters shown as escapes, so it cannot rewrite the question.
 */
export function describeApproval(request: ApprovalRequest): string {
  const who = request.leafTitle ? ` [subagent: ${visible(request.leafTitle)}]` : '';
  // Laid out over lines when it can be; arguments nested too deep for that are written on one.
  const args = nestsTooDeep(request.arguments)
    ? jsonTextOf(request.arguments)
    : (JSON.stringify(request.arguments, null, 2) ?? '');
  return [
    `\n? ${visible(request.tool)} wants to run${who} (risk: ${visible(request.risk)})`,
    `  arguments: ${args.split('\n').map(visible).join('\n  ')}`,
    ...(request.notice === undefined ? [] : [`  note: ${oneLineOf(request.notice, 400)}`]),
    `  ${visible(request.meaning)}`,
    `  ${alwaysOffer(request)}`,
    `  approval id: ${visible(request.id)}`,
  ].join('\n');
}

/** The answers `toolseam approve` takes for a request: always only when its question said what it covers. */
export function answerWords(request: Pick<ApprovalRequest, 'always'>): string {
  return request.always === undefined ? 'yes|no' : 'yes|no|always';
}

/**
 * The line that says what answering "always" (in this session, as the terminal answers it) would let
 * run without asking, or that this question takes yes or no only.
 */
export function alwaysOffer(request: Pick<ApprovalRequest, 'always'>): string {
  if (request.always === undefined) {
    return 'always: not offered (an earlier version of toolseam asked this, without saying what it would cover)';
  }
  return oneLineOf(alwaysLine(request.always, 'session'), 600);
}

/**
 * Why a call was not run, once and for a person: the runtime's plain reason, else the first line of
 * what the model read without its "Error:" and its own "<tool> was not run:".
 */
export function notRunReason(event: {
  readonly tool: string;
  readonly content: string;
  readonly reason?: string;
}): string {
  if (event.reason !== undefined) return event.reason;
  const first = event.content.replace(/^Error: /, '').split('\n')[0] ?? '';
  for (const name of [`\`${event.tool}\``, event.tool]) {
    const said = `${name} was not run: `;
    if (first.startsWith(said)) return first.slice(said.length);
  }
  return first;
}

/** A wait before a model call is tried again, for a person: `in 8 s` (rounded up), `in 0.4 s`, `now`. */
function retryWait(ms: number): string {
  if (ms <= 0) return 'now';
  if (ms < 1_000) return `in ${Math.max(0.1, Math.round(ms / 100) / 10)} s`;
  return `in ${Math.ceil(ms / 1_000)} s`;
}

/** One line saying which provider failed how, when toolseam tries again and which attempt that is. */
export function retryLine(retry: ModelRetry): string {
  const status = retry.status === undefined ? '' : ` (HTTP ${retry.status})`;
  return `${retry.provider}: ${retry.reason}${status}; trying again ${retryWait(retry.waitMs)}, attempt ${retry.attempt} of ${retry.maxAttempts}`;
}

/** Prints a turn's events as they arrive; returns the turn-end event when it comes. */
export function printEvent(event: RuntimeEvent, streams: PrinterStreams, state: { midLine: boolean }): void {
  const { out, info } = streams;
  const line = (text: string): void => {
    if (state.midLine) out.write('\n');
    state.midLine = false;
    info.write(`${text}\n`);
  };
  switch (event.type) {
    case 'text-delta': {
      const text = visibleLines(event.text);
      out.write(text);
      state.midLine = !text.endsWith('\n');
      return;
    }
    case 'tool-call-start':
      line(`· ${visible(event.tool)} ${shortArgs(event.arguments)}`);
      return;
    case 'tool-call-end': {
      const tool = visible(event.tool);
      if (event.refusedBy || event.notRun) line(`  ✗ ${tool} not run: ${visible(notRunReason(event))}`);
      else if (event.isError) line(`  ✗ ${tool} failed: ${visible(event.content.split('\n')[0] ?? '')}`);
      else line(`  ✓ ${tool}`);
      return;
    }
    case 'notice':
    case 'tools-quarantined':
      line(`(${visible(event.message)})`);
      return;
    case 'model-retry':
      if (event.leaf) line(`  ◦ [${visible(event.leaf.title)}] waiting: ${visible(retryLine(event))}`);
      else line(`(${visible(retryLine(event))})`);
      return;
    case 'model-waiting':
      line(`(still waiting for the model: ${Math.round(event.waitedMs / 1000)} s so far)`);
      return;
    case 'leaf': {
      const detail = event.detail ? `: ${visible(event.detail)}` : '';
      line(`  ◦ [${visible(event.title)}] ${visible(event.state)}${detail}`);
      return;
    }
    case 'turn-end':
      if (state.midLine) out.write('\n');
      state.midLine = false;
      // a model may end its turn with no content at all (Claude does, often after a tool result); said,
      // so the person is not left at a silent prompt
      if (event.status === 'done' && event.message.trim() === '')
        info.write(
          '(the model ended the turn without a final answer; send a message such as "go on" to ask again)\n',
        );
      return;
    default:
      return;
  }
}
