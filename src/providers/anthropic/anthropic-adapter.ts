import Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from '@anthropic-ai/sdk/resources/messages';
import type { ProviderError } from '../../core/errors.js';
import type { ModelEvent, ModelRequest } from '../../core/model.js';
import { captureErrorBodies, type ErrorBodyCapture, type FetchLike } from '../shared/error-body-capture.js';
import type { FirstByteDeadline } from '../shared/first-byte.js';
import type { ResolvedProviderConfig } from '../shared/provider-config.js';
import type { RejectionDialect } from '../shared/rejection-dialect.js';
import { SdkModelAdapter } from '../shared/sdk-model-adapter.js';
import { streamEnding } from '../shared/stream-ending.js';
import { anthropicProviderError } from './anthropic-errors.js';
import { toAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamParser, messageEvents } from './anthropic-stream-parser.js';

/** The Anthropic Messages API through `@anthropic-ai/sdk`. */
export class AnthropicAdapter extends SdkModelAdapter {
  readonly provider = 'anthropic';
  private readonly client: Anthropic;
  private readonly capture: ErrorBodyCapture;

  constructor(
    config: ResolvedProviderConfig,
    options: { readonly dialects: readonly RejectionDialect[]; readonly fetch?: FetchLike },
  ) {
    super(config, options.dialects);
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

  protected async *attempt(request: ModelRequest, deadline: FirstByteDeadline): AsyncGenerator<ModelEvent> {
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

  override toProviderError(error: unknown): ProviderError {
    return anthropicProviderError(error, this.capture);
  }
}
