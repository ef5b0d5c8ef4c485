import type { CompactionRecord } from '../../core/context-records.js';
import type { StoredMessage } from '../../core/session-records.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import { compactionCut } from './compaction-cut.js';
import type { LongSession } from './long-session.js';
import { keepUsage, observeUsage } from './note-usage.js';
import { fallbackSummary, summaryRequest, summaryTranscript, writeSummary } from './summary-request.js';
import { messageChars } from './token-estimate.js';

/** The share of the window the turns kept verbatim may take after a compaction. */
const KEEP_SHARE = 0.4;
/** The least a threshold compaction must take out, as a share of the window. */
const MIN_GAIN_SHARE = 0.1;
/** The share of the window the summary request's transcript may take. */
const SUMMARY_INPUT_SHARE = 0.5;

/** The messages no compaction covers yet, oldest first. */
export function liveMessages(
  all: readonly StoredMessage[],
  compaction: CompactionRecord | undefined,
): StoredMessage[] {
  if (compaction === undefined) return all.slice();
  return all.filter((m) => m.seq > compaction.throughSeq);
}

/** How long a summary may be, in tokens, for a window. */
export function summaryTokens(window: number): number {
  return Math.max(256, Math.min(2_048, Math.floor(window / 10)));
}

/**
 * Replaces the older turns of the session's conversation by a summary the model writes (a separate,
 * bounded request), keeps it as a compaction record and tells the person; the messages stay in the
 * store. Returns the new record, or undefined when nothing can be summarized (one turn is all there is).
 */
export async function compactSession(
  env: TurnEnvironment,
  long: LongSession,
  window: number,
  fixedTokens: number,
  tokensBefore: number,
  reason: CompactionRecord['reason'],
): Promise<CompactionRecord | undefined> {
  const all = await env.history.messages(env.store);
  const live = liveMessages(all, long.compaction);
  const tokensOf = (m: StoredMessage) => long.calibration.tokens(messageChars(m.message));
  // the provider said the request does not fit: only the latest turn is kept verbatim
  const keepTokens = reason === 'overflow' ? 0 : Math.max(0, Math.floor(window * KEEP_SHARE) - fixedTokens);
  const cut = compactionCut(live, keepTokens, tokensOf);
  if (cut === undefined) return undefined;
  const older = live.slice(0, cut);
  // when the tools and system text fill the window themselves, summarizing a little would only cost a
  // summary request on every call: a threshold compaction needs enough to take out
  const olderTokens = older.reduce((sum, m) => sum + tokensOf(m), 0);
  if (reason === 'threshold' && olderTokens < window * MIN_GAIN_SHARE) return undefined;
  const maxTokens = summaryTokens(window);
  const inputChars = Math.floor(window * SUMMARY_INPUT_SHARE * long.calibration.charsPerToken);
  const previous = long.compaction?.summary;
  const request = summaryRequest(
    summaryTranscript(previous, older, inputChars),
    { inputChars, maxTokens },
    env.signal,
  );
  const limitChars = Math.floor(maxTokens * long.calibration.charsPerToken);
  let summary: string;
  try {
    const written = await writeSummary(env.model, request);
    // the summary's tokens are spent like any answer's: kept, and a calibration of the estimate
    await keepUsage(env, await observeUsage(env, request, written.usage));
    summary = written.text.slice(0, limitChars);
  } catch (error) {
    if (env.signal.aborted) throw error;
    env.logger.log({
      level: 'warn',
      scope: 'runtime',
      message: `the summary of older turns could not be written (${(error as Error).message}); a plain list of the requests stands in`,
      fields: { sessionId: env.sessionId },
    });
    summary = '';
  }
  if (summary === '') summary = fallbackSummary(previous, older, limitChars);
  const kept = live.slice(cut).reduce((sum, m) => sum + tokensOf(m), 0);
  const record = await env.store.addCompaction({
    sessionId: env.sessionId,
    turnId: env.turnId,
    throughSeq: (older.at(-1) as StoredMessage).seq,
    summary,
    messagesCovered: (long.compaction?.messagesCovered ?? 0) + older.length,
    tokensBefore,
    tokensAfter: fixedTokens + long.calibration.tokens(summary.length) + kept,
    reason,
  });
  long.compaction = record;
  env.emit({
    type: 'notice',
    message: `The conversation was nearing ${env.model.model}'s context window (about ${tokensBefore.toLocaleString('en-US')} of ${window.toLocaleString('en-US')} tokens): ${older.length} earlier messages are now sent as a summary. The full history stays stored.`,
  });
  return record;
}
