import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ApprovalDecision, ApprovalRequest } from '../core/approval.js';
import { alwaysLine } from '../core/grant-scope.js';
import { jsonTextOf } from '../core/json-text-of.js';
import { headOf } from '../core/text-cut.js';
import type { PersonAsker } from '../runtime/calls/call-session.js';

/** How much of a call's arguments the question shows. */
const SHOWN_ARGUMENT_CHARS = 2_000;

/** True when the client said, at initialize, that it can put a form to its person (MCP elicitation). */
export function canElicit(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation !== undefined;
}

/**
 * Puts a call's question to the person through the client's elicitation form: accept runs it (with
 * "always" when they tick it and the question offers it), decline refuses it, a dismissed form refuses
 * it too, so the call never hangs until the question's timeout. `timeoutMs` bounds the client's answer.
 */
export function elicitingAsker(server: Server, timeoutMs: number): PersonAsker {
  return async (request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> => {
    const always = request.always;
    const properties = always
      ? {
          always: {
            type: 'boolean' as const,
            title: 'Always',
            description: alwaysLine(always, 'session'),
            default: false,
          },
        }
      : {};
    const answer = await server.elicitInput(
      { mode: 'form', message: questionText(request), requestedSchema: { type: 'object', properties } },
      { signal, timeout: timeoutMs },
    );
    if (answer.action === 'accept') {
      return always && answer.content?.always === true
        ? { kind: 'approve', always: 'session' }
        : { kind: 'approve' };
    }
    if (answer.action === 'decline') return { kind: 'deny', reason: 'declined in the MCP client' };
    return { kind: 'deny', reason: 'the question was dismissed in the MCP client' };
  };
}

/** The question as the person reads it: what approving does, the tool and its arguments. */
function questionText(request: ApprovalRequest): string {
  const args = jsonTextOf(request.arguments);
  const shown = args.length > SHOWN_ARGUMENT_CHARS ? `${headOf(args, SHOWN_ARGUMENT_CHARS)}…` : args;
  const notice = request.notice ? `\n${request.notice}` : '';
  return `toolseam asks before running ${request.tool}. ${request.meaning}\nArguments: ${shown}${notice}\nAccept to run it, decline to refuse it.`;
}
