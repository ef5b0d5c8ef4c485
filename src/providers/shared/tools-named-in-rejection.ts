import { ProviderError } from '../../core/errors.js';
import type { WireTool } from '../../core/model.js';
import { genericToolMentions, type RejectionDialect } from './rejection-dialect.js';
import { isValidationFailure, rejectionEvidence } from './rejection-evidence.js';

/** The tools a rejection blames, and how surely. */
export interface RejectionFinding {
  /** Wire names of the tools in `sent`, in request order without repeats. */
  readonly tools: string[];
  /**
   * True when the provider itself points at every one: by the tool's name, by a property it declares,
   * or by its place in the request in the provider's own path form. False when only the last resort (a
   * `tools[N]` or a quoted name anywhere in a text about schemas) found them.
   */
  readonly attributed: boolean;
}

/**
 * The tools in `sent` that `error` blames ([] when the error is not a validation failure about a tool
 * definition: rate limits, a prompt too long, a message error). Name evidence beats position; position
 * beats the generic last resort, which runs only when no dialect recognised a path at all.
 */
export function rejectionFinding(
  error: unknown,
  sent: readonly WireTool[],
  dialects: readonly RejectionDialect[],
): RejectionFinding {
  const evidence = rejectionEvidence(error);
  if (sent.length === 0 || !isValidationFailure(evidence)) return { tools: [], attributed: false };
  const findings = dialects.map((dialect) => dialect(evidence, sent));
  let indices = findings.filter((f) => f.byName).flatMap((f) => f.indices);
  if (indices.length === 0) indices = findings.filter((f) => !f.byName).flatMap((f) => f.indices);
  const attributed = indices.length > 0;
  if (indices.length === 0 && !findings.some((f) => f.sawPath)) {
    indices = [...genericToolMentions(evidence, sent).indices];
  }
  const tools = [...new Set(indices)].sort((a, b) => a - b).map((i) => sent[i]?.name ?? '');
  return { tools, attributed };
}

/** The wire names of the tools in `sent` that `error` blames, in request order (see `rejectionFinding`). */
export function toolsNamedInRejection(
  error: unknown,
  sent: readonly WireTool[],
  dialects: readonly RejectionDialect[],
): string[] {
  return rejectionFinding(error, sent, dialects).tools;
}

/** The tools `error` blames when the provider itself points at them; [] otherwise (see `rejectionFinding`). */
export function toolsAttributedInRejection(
  error: unknown,
  sent: readonly WireTool[],
  dialects: readonly RejectionDialect[],
): string[] {
  const finding = rejectionFinding(error, sent, dialects);
  return finding.attributed ? finding.tools : [];
}

/**
 * `error` marked not retryable when it blames a tool in `sent`: a bad definition is refused the same way
 * every time, so it is never sent again, even when the server says `x-should-retry: true`.
 */
export function settledToolRejection(
  error: ProviderError,
  sent: readonly WireTool[],
  dialects: readonly RejectionDialect[],
): ProviderError {
  if (!error.retryable || toolsNamedInRejection(error, sent, dialects).length === 0) return error;
  return new ProviderError({
    provider: error.provider,
    status: error.status,
    message: error.message,
    providerCode: error.providerCode,
    retryable: false,
    requestId: error.requestId,
    rawBody: error.rawBody,
    retryAfterMs: error.retryAfterMs,
    cause: error.cause,
  });
}
