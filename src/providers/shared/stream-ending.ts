import type { ProviderError } from '../../core/errors.js';
import type { ModelEvent } from '../../core/model.js';
import { cutStreamError, transportProviderError } from './provider-errors.js';

/** What every family's stream parser offers once its stream has ended. */
export interface EndingStreamParser {
  /** True once the stream's closing event (a stop reason) has arrived. */
  readonly complete: boolean;
  /** The assembled tool calls and the finish event. */
  finish(): ModelEvent[];
}

function unfinished(provider: string, signal: AbortSignal | undefined): ProviderError {
  // the SDKs end a stream quietly when the caller aborts it; that is a cancellation, not a cut
  return signal?.aborted
    ? transportProviderError(provider, 'aborted', signal.reason)
    : cutStreamError(provider);
}

/**
 * The closing events of a stream that has ended. A stream that stopped before its closing event (a
 * proxy or a dropped connection cutting it cleanly) would otherwise read as a whole answer, with
 * cut-off text or tool arguments, so it fails instead.
 */
export function streamEnding(
  parser: EndingStreamParser,
  provider: string,
  signal: AbortSignal | undefined,
): ModelEvent[] {
  if (!parser.complete) throw unfinished(provider, signal);
  return parser.finish();
}
