import type { ApprovalRequest } from '../core/approval.js';
import type { RuntimeEvent } from '../core/events.js';
import { headOf } from '../core/text-cut.js';

/** Where the printer writes: the answer to `out`, everything about tools and approvals to `info`. */
export interface PrinterStreams {
  readonly out: NodeJS.WritableStream;
  readonly info: NodeJS.WritableStream;
}

const MAX_ARGS = 160;

/** Arguments in one short line. */
export function shortArgs(args: unknown): string {
  const text = JSON.stringify(args) ?? '';
  return text.length > MAX_ARGS ? `${headOf(text, MAX_ARGS - 1)}…` : text;
}

/** `text` on one line (line breaks, tabs and other control characters as spaces), cut to `limit`. */
export function oneLineOf(text: string, limit: number): string {
  const flat = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
  return flat.length > limit ? `${headOf(flat, limit - 1)}…` : flat;
}

/** The lines a person reads for an approval request. */
export function describeApproval(request: ApprovalRequest): string {
  const who = request.leafTitle ? ` [subagent: ${request.leafTitle}]` : '';
  return [
    `\n? ${request.tool} wants to run${who} (risk: ${request.risk})`,
    `  arguments: ${JSON.stringify(request.arguments, null, 2).split('\n').join('\n  ')}`,
    `  ${request.meaning}`,
    `  approval id: ${request.id}`,
  ].join('\n');
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

/** Prints a turn's events as they arrive; returns the turn-end event when it comes. */
export function printEvent(event: RuntimeEvent, streams: PrinterStreams, state: { midLine: boolean }): void {
  const { out, info } = streams;
  const line = (text: string): void => {
    if (state.midLine) out.write('\n');
    state.midLine = false;
    info.write(`${text}\n`);
  };
  switch (event.type) {
    case 'text-delta':
      out.write(event.text);
      state.midLine = !event.text.endsWith('\n');
      return;
    case 'tool-call-start':
      line(`· ${event.tool} ${shortArgs(event.arguments)}`);
      return;
    case 'tool-call-end': {
      if (event.refusedBy || event.notRun) line(`  ✗ ${event.tool} not run: ${notRunReason(event)}`);
      else if (event.isError) line(`  ✗ ${event.tool} failed: ${event.content.split('\n')[0] ?? ''}`);
      else line(`  ✓ ${event.tool}`);
      return;
    }
    case 'notice':
      line(`(${event.message})`);
      return;
    case 'leaf':
      line(`  ◦ [${event.title}] ${event.state}${event.detail ? `: ${event.detail}` : ''}`);
      return;
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
