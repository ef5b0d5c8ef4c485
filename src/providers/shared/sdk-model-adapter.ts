import type { ProviderError } from '../../core/errors.js';
import type { ModelAdapter, ModelEvent, ModelRequest, WireTool } from '../../core/model.js';
import { type FirstByteDeadline, underFirstByteDeadline } from './first-byte.js';
import type { ResolvedProviderConfig } from './provider-config.js';
import type { RejectionDialect } from './rejection-dialect.js';
import {
  settledToolRejection,
  toolsAttributedInRejection,
  toolsNamedInRejection,
} from './tools-named-in-rejection.js';
import { withRetries } from './with-retries.js';

/**
 * What every adapter on a vendor's SDK does the same way: a model call's attempts each run under the
 * first-byte deadline, passing failures are retried (`withRetries`), a rejection that blames a tool the
 * request sent is never retried, and rejections are read in the family's dialects. A family brings one
 * attempt and its SDK's errors; `Call` is what one call's attempts share with that conversion.
 */
export abstract class SdkModelAdapter<Call = undefined> implements ModelAdapter {
  abstract readonly provider: string;
  readonly model: string;

  /** `dialects`: the forms the family's rejections may take (the factory gives each family its own). */
  protected constructor(
    protected readonly config: ResolvedProviderConfig,
    private readonly dialects: readonly RejectionDialect[],
  ) {
    this.model = config.model;
  }

  stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    const call = this.startCall();
    return withRetries({
      attempt: () =>
        underFirstByteDeadline(this.config.firstByteTimeoutMs, request.signal, this.provider, (deadline) =>
          this.attempt(request, deadline, call),
        ),
      toProviderError: (error) =>
        settledToolRejection(this.toProviderError(error, call), request.tools, this.dialects),
      settings: this.config.retry,
      signal: request.signal,
    });
  }

  /** Fresh state for one model call, shared by its attempts and its error conversion (none by default). */
  protected startCall(): Call {
    return undefined as Call;
  }

  /** Sends `request` once with the deadline's signal, calling `deadline.heard()` once the answer starts. */
  protected abstract attempt(
    request: ModelRequest,
    deadline: FirstByteDeadline,
    call: Call,
  ): AsyncIterable<ModelEvent>;

  /** Any error this adapter's SDK threw, as a `ProviderError` with the raw body. */
  abstract toProviderError(error: unknown, call?: Call): ProviderError;

  toolsNamedInRejection(error: unknown, sent: readonly WireTool[]): string[] {
    return toolsNamedInRejection(this.toProviderError(error), sent, this.dialects);
  }

  toolsAttributedInRejection(error: unknown, sent: readonly WireTool[]): string[] {
    return toolsAttributedInRejection(this.toProviderError(error), sent, this.dialects);
  }
}
