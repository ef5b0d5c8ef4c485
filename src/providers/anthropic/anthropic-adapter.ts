import Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from '@anthropic-ai/sdk/resources/messages';
import type { ProviderError } from '../../core/errors.js';
import type { ModelEvent, ModelRequest } from '../../core/model.js';
import { captureErrorBodies, type ErrorBodyCapture } from '../shared/error-body-capture.js';
import type { FirstByteDeadline } from '../shared/first-byte.js';
import type { FetchLike } from '../shared/http-fetch.js';
import type { ResolvedProviderConfig } from '../shared/provider-config.js';
import type { RejectionDialect } from '../shared/rejection-dialect.js';
import { SdkModelAdapter } from '../shared/sdk-model-adapter.js';
import { streamEnding } from '../shared/stream-ending.js';
import { anthropicBodyBytes } from './anthropic-body-bytes.js';
import { anthropicProviderError } from './anthropic-errors.js';
import { anthropicForms, anthropicMessageForms, toAnthropicRequest } from './anthropic-request.js';
import { AnthropicStreamParser, messageEvents } from './anthropic-stream-parser.js';

/** The Anthropic Messages API through `@anthropic-ai/sdk`. */
export class AnthropicAdapter extends SdkModelAdapter {
  readonly provider = 'anthropic';
  private readonly client: Anthropic;
  private readonly capture: ErrorBodyCapture;
  /** Each history message's blocks and their JSON, made once for every request of every session this adapter serves. */
  private readonly forms = anthropicForms();

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
    return toAnthropicRequest(request, this.wire(), this.messageForms(request));
  }

  private wire() {
    return { model: this.model, stream: this.config.stream, defaultMaxTokens: this.config.maxTokens };
  }

  private messageForms(request: ModelRequest) {
    return anthropicMessageForms(request.messages, request.tools.length === 0, this.forms);
  }

  protected async *attempt(request: ModelRequest, deadline: FirstByteDeadline): AsyncGenerator<ModelEvent> {
    const forms = this.messageForms(request);
    const body = toAnthropicRequest(request, this.wire(), forms);
    // The SDK sends a body given in the options as it is, in place of its own JSON of `body`
    const options = {
      signal: deadline.signal,
      body: anthropicBodyBytes(body, forms, this.forms),
      headers: { 'content-type': 'application/json' },
    };
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
