import Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from '@anthropic-ai/sdk/resources/messages';
import type { ProviderError } from '../../core/errors.js';
import type { ModelAdapter, ModelEvent, ModelRequest, WireTool } from '../../core/model.js';
import { captureErrorBodies, type ErrorBodyCapture, type FetchLike } from '../shared/error-body-capture.js';
import { type FirstByteDeadline, underFirstByteDeadline } from '../shared/first-byte.js';
import type { ResolvedProviderConfig } from '../shared/provider-config.js';
import { streamEnding } from '../shared/stream-ending.js';
import {
  ANTHROPIC_DIALECTS,
  settledToolRejection,
  toolsAttributedInRejection,
  toolsNamedInRejection,
} from '../shared/tools-named-in-rejection.js';
import { withRetries } from '../shared/with-retries.js';
import { anthropicProviderError } from './anthropic-errors.js';
import { toAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamParser, messageEvents } from './anthropic-stream-parser.js';

/** The Anthropic Messages API through `@anthropic-ai/sdk`. */
export class AnthropicAdapter implements ModelAdapter {
  readonly provider = 'anthropic';
  readonly model: string;
  private readonly client: Anthropic;
  private readonly capture: ErrorBodyCapture;
  private readonly config: ResolvedProviderConfig;

  constructor(config: ResolvedProviderConfig, options: { fetch?: FetchLike } = {}) {
    this.config = config;
    this.model = config.model;
    this.capture = captureErrorBodies(options.fetch);
    this.client = new Anthropic({
      // a server on this machine may take no key; the SDK refuses to send a request without one
      apiKey: config.apiKey ?? 'no-key',
      baseURL: config.baseURL ?? null,
      maxRetries: 0,
      timeout: config.timeoutMs,
      fetch: this.capture.fetch,
      defaultHeaders: config.headers,
    });
  }

  /** The request body this adapter sends for `request`. */
  buildRequest(request: ModelRequest) {
    return toAnthropicRequest(request, {
      model: this.model,
      stream: this.config.stream,
      defaultMaxTokens: this.config.maxTokens,
    });
  }

  stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    return withRetries({
      attempt: () =>
        underFirstByteDeadline(this.config.firstByteTimeoutMs, request.signal, this.provider, (deadline) =>
          this.attempt(request, deadline),
        ),
      toProviderError: (error) =>
        settledToolRejection(this.toProviderError(error), request.tools, ANTHROPIC_DIALECTS),
      settings: this.config.retry,
      signal: request.signal,
    });
  }

  private async *attempt(request: ModelRequest, deadline: FirstByteDeadline): AsyncGenerator<ModelEvent> {
    const body = this.buildRequest(request);
    const options = { signal: deadline.signal };
    if (body.stream) {
      const stream = await this.client.messages.create(body as MessageCreateParamsStreaming, options);
      const parser = new AnthropicStreamParser();
      for await (const event of stream) {
        deadline.heard();
        yield* parser.push(event);
      }
      yield* streamEnding(parser, this.provider, request.signal);
    } else {
      const message = await this.client.messages.create(body as MessageCreateParamsNonStreaming, options);
      deadline.heard();
      yield* messageEvents(message);
    }
  }

  /** Any error this adapter's SDK threw, as a `ProviderError` with the raw body. */
  toProviderError(error: unknown): ProviderError {
    return anthropicProviderError(error, this.capture);
  }

  toolsNamedInRejection(error: unknown, sent: readonly WireTool[]): string[] {
    return toolsNamedInRejection(this.toProviderError(error), sent, ANTHROPIC_DIALECTS);
  }

  toolsAttributedInRejection(error: unknown, sent: readonly WireTool[]): string[] {
    return toolsAttributedInRejection(this.toProviderError(error), sent, ANTHROPIC_DIALECTS);
  }
}
