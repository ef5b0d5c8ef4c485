import type { TurnStatus } from '../core/events.js';
import type { AssistantToolCall, ModelRequest, StopReason } from '../core/model.js';
import { wholeText } from '../core/text-cut.js';
import { keepStoppedAnswer } from './cut-off-answer.js';
import { failedCall } from './failed-call.js';
import { refusedToolsNote } from './refused-tools.js';
import { resultsInCallOrder } from './results-in-call-order.js';
import { recordReply, runCalls } from './run-calls.js';
import { SilenceWatch } from './silence-watch.js';
import type { TurnContext } from './turn-context.js';
import { type TurnTools, turnToolsOf, wireToolsFor } from './turn-tools.js';
import { wireHistory } from './wire-history.js';

/** How a turn ended, with what the person reads. */
export interface TurnEnd {
  readonly status: TurnStatus;
  readonly message: string;
  readonly errorCode?: string;
}

/**
 * The turn: call the model with the selected tools, stream its text, run the calls it asks for, and
 * loop until it answers without calls, a bound is hit, the turn is stopped, or the provider refuses.
 */
export async function runTurnLoop(ctx: TurnContext): Promise<TurnEnd> {
  const tools = turnToolsOf(ctx);
  for (; ; ctx.modelCalls += 1) {
    if (ctx.signal.aborted) return { status: 'stopped', message: 'The turn was stopped.' };
    if (ctx.modelCalls >= ctx.limits.maxModelCalls) {
      return {
        status: 'limit',
        message: `The turn stopped after ${ctx.limits.maxModelCalls} model calls without a final answer. Send a message to continue.`,
        errorCode: 'model_call_limit',
      };
    }
    const request = await buildRequest(ctx, tools);
    const reply = await callModel(ctx, request, tools);
    if ('end' in reply) return reply.end;
    // a tool asked for mid-turn was refused and left out: the model is called again without it
    if ('leftOut' in reply) continue;
    const planned = await recordReply(ctx, reply.text, reply.calls, reply.stopReason === 'max_tokens');
    if (planned.length === 0) return finalAnswer(reply);
    await runCalls(ctx, planned);
  }
}

async function buildRequest(ctx: TurnContext, tools: TurnTools): Promise<ModelRequest> {
  const stored = (await ctx.store.listMessages(ctx.sessionId)).map((m) => m.message);
  const messages = wireHistory(resultsInCallOrder(stored), ctx.surface);
  let system = tools.note ? `${ctx.system}\n\n${tools.note}` : ctx.system;
  const refused = refusedToolsNote(ctx);
  if (refused !== '') system = `${system}\n\n${refused}`;
  // the catalog quotes deferred tools' descriptions, which may hold half of a character
  return { system: wholeText(system), messages, tools: wireToolsFor(ctx, tools), signal: ctx.signal };
}

interface Answer {
  readonly text: string;
  readonly calls: AssistantToolCall[];
  readonly stopReason: StopReason;
  /** The provider's own word for the stop, '' when it gave none. */
  readonly rawStopReason: string;
}

type Reply = Answer | { readonly end: TurnEnd } | { readonly leftOut: true };

/**
 * How a reply without calls ends the turn: done, unless the model was cut off at its output limit,
 * stopped by a content filter, or stopped for another reason without a word of answer.
 */
function finalAnswer(reply: Answer): TurnEnd {
  const said = reply.rawStopReason === '' ? '' : ` (the provider's reason: ${reply.rawStopReason})`;
  if (reply.stopReason === 'max_tokens') {
    return {
      status: 'limit',
      message: `The answer was cut off at the model's output limit${said}. Send a message such as "go on" for the rest, or allow longer answers.`,
      errorCode: 'output_limit',
    };
  }
  if (reply.stopReason === 'content_filter') {
    return {
      status: 'failed',
      message: `The provider's content filter stopped the answer${said}.`,
      errorCode: 'content_filtered',
    };
  }
  if (reply.stopReason === 'other' && reply.text.trim() === '') {
    return {
      status: 'failed',
      message: `The model stopped without an answer${said}.`,
      errorCode: 'no_answer',
    };
  }
  return { status: 'done', message: reply.text };
}

async function callModel(ctx: TurnContext, request: ModelRequest, tools: TurnTools): Promise<Reply> {
  let text = '';
  const calls: AssistantToolCall[] = [];
  let stopReason: StopReason = 'end_turn';
  let rawStopReason = '';
  const silence = new SilenceWatch(ctx.emit, ctx.waitingNoticeMs);
  try {
    for await (const event of ctx.model.stream(request)) {
      if (event.type === 'retry') silence.restart();
      else silence.stop();
      if (event.type === 'text-delta') {
        text += event.text;
        ctx.emit({ type: 'text-delta', text: event.text });
      } else if (event.type === 'tool-call') {
        const call = { id: event.id, name: event.name, arguments: event.arguments };
        calls.push(event.signature === undefined ? call : { ...call, signature: event.signature });
      } else if (event.type === 'retry') {
        const { type: _retry, ...notice } = event;
        ctx.emit({ type: 'model-retry', ...notice });
      } else {
        stopReason = event.stopReason;
        rawStopReason = event.rawStopReason;
      }
    }
  } catch (error) {
    return failedCall(ctx, request, tools, error, text);
  } finally {
    silence.stop();
  }
  if (ctx.signal.aborted) {
    // stopped as the answer came in: the text shown is kept, the calls (never run) are not
    await keepStoppedAnswer(ctx, text);
    return { end: { status: 'stopped', message: 'The turn was stopped.' } };
  }
  return { text, calls, stopReason, rawStopReason };
}
