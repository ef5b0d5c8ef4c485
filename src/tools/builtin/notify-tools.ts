import { basename } from 'node:path';
import type { JsonValue } from '../../core/json.js';
import type { ToolGroup, ToolResult } from '../../core/tool.js';
import { defineTool, type InProcessTool, refusalResult } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import type { AttachmentRef, NotifyRefusal, Verdict } from '../notify/gateway.js';
import { mediaType } from '../notify/local-checks.js';
import type { Notifier, NotifyRequest, NotifyResult } from '../notify/notifier.js';
import { type Checked, checkedWork, ready, refuse } from './checked-work.js';
import { type FileScope, locate } from './file-scope.js';
import { PATH_TEXT } from './file-text.js';

/** The group the notify tools are listed under. */
export const NOTIFY_GROUP: ToolGroup = {
  key: 'notify',
  own: true,
  purpose: "Send the person a message (or a workspace file) through the channels toolseam's config names.",
};

const channelField = (notifier: Notifier) =>
  field.string({
    description: `The channel to send to (${notifier.channels().join(', ')}); leave out for the default one.`,
    optional: true,
  });

function refused(found: NotifyRefusal): Checked<never> {
  return refuse(found.code, found.message, found.hints ?? [], { refusedBy: 'notify_check' });
}

function checkedRequest(verdict: Verdict, request: NotifyRequest): Checked<NotifyRequest> {
  return 'refusal' in verdict ? refused(verdict.refusal) : ready(request);
}

/** What the model reads after a send. */
function resultOf(result: NotifyResult): ToolResult | string {
  switch (result.status) {
    case 'sent':
      return `Sent to ${result.channel}${result.receipt ? ` (message ${result.receipt})` : ''}.`;
    case 'queued':
      return `Not delivered yet: ${result.reason}. It is kept in the outbox and sent to ${result.channel} from ${result.retryAt} on; do not send it again.`;
    case 'refused':
      return refusalResult({
        message: result.refusal.message,
        ...(result.refusal.hints ? { hints: result.refusal.hints } : {}),
        data: { code: result.refusal.code },
      });
    case 'failed':
      return {
        content: `Sending to ${result.channel} failed: ${result.error}`,
        isError: true,
        data: { code: 'notify_failed' },
      };
  }
}

/** `notify`: a text message (and optional blocks) to the person, through a configured channel. */
export function notifyTool(notifier: Notifier) {
  const fields = {
    text: field.string({ description: 'What to tell the person.' }),
    channel: channelField(notifier),
    blocks: field.json({
      description:
        "Optional structured blocks, as JSON text of a list, in the service's own form (Slack blocks, Discord embeds).",
      shape: 'list',
      optional: true,
    }),
  };
  return defineTool({
    name: 'notify',
    description:
      'Sends the person a message through a configured channel (webhook, ntfy, Slack, Discord or Telegram). ' +
      'What the channel would refuse (too long, too many blocks, no credentials) is refused before anyone is asked.',
    risk: 'caution',
    group: NOTIFY_GROUP,
    // "Always" covers any message to the same channel: the person chose where, not each word.
    grantScope: ['channel'],
    fields,
    ...checkedWork(
      async (args: ArgsOf<typeof fields>, ctx) => {
        const request: NotifyRequest = {
          text: args.text,
          channel: args.channel,
          blocks: args.blocks as readonly JsonValue[] | undefined,
          origin: ctx.sessionId,
        };
        return checkedRequest(await notifier.check(request, ctx.signal), request);
      },
      async (request, _args, ctx) => resultOf(await notifier.deliver(request, ctx.signal)),
    ),
  });
}

/** `notify_attachment`: a workspace file to the person, read and checked as the file tools read files. */
export function notifyAttachmentTool(notifier: Notifier, scope: FileScope) {
  const fields = {
    path: field.string({ description: 'The workspace file to send.', ...PATH_TEXT }),
    channel: channelField(notifier),
    text: field.string({ description: 'A line to send with the file.', default: '' }),
  };
  return defineTool({
    name: 'notify_attachment',
    description:
      'Sends the person a file from the workspace through a configured channel, with an optional line of text. ' +
      'A file the channel would refuse (missing, outside the workspace, too large, of a type it does not take) is refused before anyone is asked.',
    risk: 'caution',
    group: NOTIFY_GROUP,
    fields,
    ...checkedWork(
      async (args: ArgsOf<typeof fields>, ctx) => {
        const located = await locate(args.path, ctx, scope, 'read');
        if ('refusal' in located) return located;
        const { stat, real } = located.ready;
        if (stat === undefined)
          return refuse('attachment_missing', `${args.path} does not exist.`, [
            'Use list_dir or glob to find the file.',
          ]);
        if (!stat.isFile())
          return refuse('not_a_file', `${args.path} is not a file; only a file can be sent.`);
        const attachment: AttachmentRef = {
          path: real,
          name: basename(real),
          size: stat.size,
          type: mediaType(real),
        };
        const request: NotifyRequest = {
          text: args.text,
          channel: args.channel,
          attachment,
          origin: ctx.sessionId,
        };
        return checkedRequest(await notifier.check(request, ctx.signal), request);
      },
      async (request, _args, ctx) => resultOf(await notifier.deliver(request, ctx.signal)),
    ),
  });
}

/** Both notify tools, for the built-in providers. */
export function notifyTools(notifier: Notifier, scope: FileScope): InProcessTool[] {
  return [notifyTool(notifier), notifyAttachmentTool(notifier, scope)] as InProcessTool[];
}
