import type { ApprovalRequest } from '../core/approval.js';
import type { ToolResult } from '../core/tool.js';

/** How a person answers a stored question in a terminal: the command, given the approval id. */
export type ApproveCommand = (approvalId: string, answer: 'yes' | 'no') => string;

/** The command a person runs by default: `toolseam approve ID yes`. */
export const plainApproveCommand: ApproveCommand = (id, answer) => `toolseam approve ${id} ${answer}`;

/**
 * The tool error a client that cannot ask reads for a call that needs a person's yes: that it did not
 * run, how the person gives the answer, and that the same call again then runs once.
 */
export function needsApprovalResult(
  request: ApprovalRequest,
  command: ApproveCommand,
  wireName: string,
  waiting = false,
): ToolResult {
  const first = waiting
    ? `\`${wireName}\` was not run: its approval ${request.id} still waits for a person's answer.`
    : `\`${wireName}\` was not run: it needs a person's approval first, and this MCP client cannot ask them, so toolseam stored the question as approval ${request.id}.`;
  return {
    content:
      `Error: ${first} ${request.meaning} The person answers it in a terminal with \`${command(request.id, 'yes')}\` ` +
      `(or \`${command(request.id, 'no')}\`). Then call ${wireName} again with exactly the same arguments: ` +
      'that call runs once, without asking again (or reports that the person declined). Tell the person this; do not change the arguments.',
    isError: true,
  };
}
