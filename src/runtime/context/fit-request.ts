import type { CompactionRecord } from '../../core/context-records.js';
import type { ChatMessage, ModelRequest } from '../../core/model.js';
import { resultsInCallOrder } from '../turn/results-in-call-order.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import { wireHistory } from '../turn/wire-history.js';
import { compactSession, liveMessages, summaryTokens } from './compact-session.js';
import { contextWindowOf, requestRoom } from './context-window.js';
import { type LongSession, longSessionOf } from './long-session.js';
import { requestChars } from './token-estimate.js';

/** How the system text introduces the summary of earlier turns. */
const SUMMARY_HEADING =
  'Earlier in this conversation (a summary written when it grew long; those messages are no longer sent):';

/** The system text with the summary after it (the system prompt itself stays as it is). */
function withSummary(system: string, compaction: CompactionRecord | undefined): string {
  return compaction === undefined ? system : `${system}\n\n${SUMMARY_HEADING}\n${compaction.summary}`;
}

/** The conversation a request carries after a compaction: the messages after it, made ready for the wire. */
async function messagesAfter(env: TurnEnvironment, compaction: CompactionRecord): Promise<ChatMessage[]> {
  const live = liveMessages(await env.history.messages(env.store), compaction);
  return resultsInCallOrder(
    wireHistory(
      live.map((m) => m.message),
      env.surface,
    ),
  );
}

async function view(env: TurnEnvironment, long: LongSession, request: ModelRequest): Promise<ModelRequest> {
  if (long.compaction === undefined) return request;
  return {
    ...request,
    system: withSummary(request.system, long.compaction),
    messages: await messagesAfter(env, long.compaction),
  };
}

/** The context window this turn's model is taken to have. */
export function windowOf(env: TurnEnvironment): number {
  return contextWindowOf(env.model.model, env.contextWindow);
}

/**
 * The request as it is sent: the conversation after the latest compaction, the summary with the system
 * text; and when it would pass the room the window allows (or `force`: the provider said it does not
 * fit), older turns are summarized first. Returns the request and whether a compaction was made.
 */
export async function fitRequest(
  env: TurnEnvironment,
  request: ModelRequest,
  force?: CompactionRecord['reason'],
): Promise<{ readonly request: ModelRequest; readonly compacted: boolean }> {
  const long = await longSessionOf(env.history, env.store, env.turnId);
  const fitted = await view(env, long, request);
  const window = windowOf(env);
  const tokens = long.calibration.tokens(requestChars(fitted));
  if (force === undefined && tokens <= requestRoom(window)) return { request: fitted, compacted: false };
  const fixed = long.calibration.tokens(requestChars({ ...request, messages: [] })) + summaryTokens(window);
  const record = await compactSession(env, long, window, fixed, tokens, force ?? 'threshold');
  if (record === undefined) return { request: fitted, compacted: false };
  return { request: await view(env, long, request), compacted: true };
}
