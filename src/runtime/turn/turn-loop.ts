import type { ReplyUsage } from '../../core/context-records.js';
import type { AssistantToolCall, ModelRequest, StopReason, Usage } from '../../core/model.js';
import { wholeText } from '../../core/text-cut.js';
import { recordReply } from '../calls/record-reply.js';
import { runCalls } from '../calls/run-calls.js';
import { fitRequest } from '../context/fit-request.js';
import { keepUsage, observeUsage } from '../context/note-usage.js';
import { refusedToolsNote } from '../surface/refused-tools.js';
import { wireToolsFor } from '../surface/request-tools.js';
import { turnToolsOf } from '../surface/select-turn-tools.js';
import type { TurnTools } from '../surface/turn-tools.js';
import { keepStoppedAnswer } from './cut-off-answer.js';
import { failedCall } from './failed-call.js';
import { SilenceWatch } from './silence-watch.js';
import type { TurnEnd } from './turn-end.js';
import type { TurnEnvironment } from './turn-environment.js';
import type { TurnState } from './turn-state.js';

/**
 * The turn: call the model with the selected tools, stream its text, run the calls it asks for, and
 * loop until it answers without calls, a bound is hit, the turn is stopped, or the provider refuses.
 */
export async function runTurnLoop(env: TurnEnvironment, state: TurnState): Promise<TurnEnd> {
  const tools = await turnToolsOf(env, state);
  for (; ; state.modelCalls += 1) {
    if (env.signal.aborted) return { status: 'stopped', message: 'The turn was stopped.' };
    if (state.modelCalls >= env.limits.maxModelCalls) return callLimitEnd(env);
    const request = await buildRequest(env, state, tools);
    // a summary written to make this request fit was a model call too
    if (state.modelCalls >= env.limits.maxModelCalls) return callLimitEnd(env);
    const reply = await callModel(env, state, request, tools);
    if ('end' in reply) return reply.end;
    // a tool asked for mid-turn was refused and left out: the model is called again without it
    if ('leftOut' in reply) continue;
    // A final answer that ends the turn as done is stored with the turn's end, in one write.
    const ends =
      reply.calls.length === 0 && finalAnswer(reply).status === 'done' && env.nothingUnsaved?.() === true;
    const planned = await recordReply(env, state, reply, reply.stopReason === 'max_tokens', ends);
    if (planned.length === 0) {
      if (ends) state.endStored = true;
      return finalAnswer(reply);
    }
    await runCalls(env, state, planned);
  }
}

function callLimitEnd(env: TurnEnvironment): TurnEnd {
  return {
    status: 'limit',
    message: `The turn stopped after ${env.limits.maxModelCalls} model calls without a final answer. Send a message to continue.`,
    errorCode: 'model_call_limit',
  };
}

/** The next request of the turn; a summary request made to fit it is counted among the turn's model calls. */
async function buildRequest(env: TurnEnvironment, state: TurnState, tools: TurnTools): Promise<ModelRequest> {
  const messages = await env.history.forRequest(env.store, env.surface);
  const refused = refusedToolsNote(env, state);
  if (state.systemText?.tools !== tools || state.systemText.refused !== refused) {
    let system = tools.note ? `${env.system}\n\n${tools.note}` : env.system;
    if (refused !== '') system = `${system}\n\n${refused}`;
    // the catalog quotes deferred tools' descriptions, which may hold half of a character
    state.systemText = { tools, refused, text: wholeText(system) };
  }
  const request = {
    system: state.systemText.text,
    messages,
    tools: wireToolsFor(env, state, tools),
    signal: env.signal,
  };
  const force = state.overflowed === 'compact' ? 'overflow' : undefined;
  if (force) state.overflowed = 'resent';
  const fitted = await fitRequest(env, request, force);
  if (fitted.compacted) state.modelCalls += 1;
  return fitted.request;
}

interface Answer {
  readonly text: string;
  readonly calls: AssistantToolCall[];
  readonly stopReason: StopReason;
  /** The provider's own word for the stop, '' when it gave none. */
  readonly rawStopReason: string;
  /** The provider's token counts, stored with the reply. */
  readonly usage: ReplyUsage | undefined;
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

async function callModel(
  env: TurnEnvironment,
  state: TurnState,
  request: ModelRequest,
  tools: TurnTools,
): Promise<Reply> {
  let text = '';
  const calls: AssistantToolCall[] = [];
  let stopReason: StopReason = 'end_turn';
  let rawStopReason = '';
  let usage: Usage | undefined;
  const silence = new SilenceWatch(env.emit, env.waitingNoticeMs);
  try {
    for await (const event of env.model.stream(request)) {
      if (event.type === 'retry') silence.restart();
      else silence.stop();
      if (event.type === 'text-delta') {
        text += event.text;
        env.emit({ type: 'text-delta', text: event.text });
      } else if (event.type === 'tool-call') {
        const call = { id: event.id, name: event.name, arguments: event.arguments };
        calls.push(event.signature === undefined ? call : { ...call, signature: event.signature });
      } else if (event.type === 'retry') {
        const { type: _retry, ...notice } = event;
        env.emit({ type: 'model-retry', ...notice });
      } else {
        stopReason = event.stopReason;
        rawStopReason = event.rawStopReason;
        usage = event.usage;
      }
    }
  } catch (error) {
    return failedCall(env, state, request, tools, error, text);
  } finally {
    silence.stop();
  }
  const counted = await observeUsage(env, request, usage);
  if (env.signal.aborted) {
    // stopped as the answer came in: the text shown is kept, the calls (never run) are not
    await keepUsage(env, counted);
    await keepStoppedAnswer(env, text);
    return { end: { status: 'stopped', message: 'The turn was stopped.' } };
  }
  return { text, calls, stopReason, rawStopReason, usage: counted };
}
