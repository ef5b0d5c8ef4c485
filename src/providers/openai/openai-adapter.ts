import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import type { ProviderError } from '../../core/errors.js';
import type { ModelEvent, ModelRequest } from '../../core/model.js';
import { captureErrorBodies, type ErrorBodyCapture } from '../shared/error-body-capture.js';
import type { FirstByteDeadline } from '../shared/first-byte.js';
import type { FetchLike } from '../shared/http-fetch.js';
import type { ResolvedProviderConfig } from '../shared/provider-config.js';
import type { RejectionDialect } from '../shared/rejection-dialect.js';
import { SdkModelAdapter } from '../shared/sdk-model-adapter.js';
import { streamEnding } from '../shared/stream-ending.js';
import { type DoneMarkerWatch, watchDoneMarker } from './done-marker.js';
import { openAIBodyBytes } from './openai-body-bytes.js';
import { OPENAI_MAX_TOOLS } from './openai-endpoints.js';
import { errorInAnswer, openaiProviderError } from './openai-errors.js';
import { type OpenAIRequestOptions, toOpenAIRequest } from './openai-request.js';
import { completionEvents, OpenAIStreamParser } from './openai-stream-parser.js';
import { OpenAIWireCache } from './openai-wire-cache.js';

/** Chat Completions through the `openai` SDK: OpenAI itself and every OpenAI-compatible endpoint. */
export class OpenAIAdapter extends SdkModelAdapter {
  readonly provider: string;
  readonly maxTools = OPENAI_MAX_TOOLS;
  private readonly client: OpenAI;
  private readonly capture: ErrorBodyCapture;
  private readonly done: DoneMarkerWatch;
  private readonly wire: OpenAIRequestOptions;
  /** History messages and tools in wire form, made once for every request of every session this adapter serves. */
  private readonly cache = new OpenAIWireCache();

  constructor(
    config: ResolvedProviderConfig,
    options: { readonly dialects: readonly RejectionDialect[]; readonly fetch?: FetchLike },
  ) {
    super(config, options.dialects);
    this.provider = config.provider;
    this.capture = captureErrorBodies(options.fetch);
    this.done = watchDoneMarker(this.capture.fetch);
    this.client = new OpenAI({
      // local OpenAI-compatible servers need no key, but the SDK insists on one
      apiKey: config.apiKey ?? 'no-key',
      baseURL: config.baseURL ?? null,
      maxRetries: 0,
      timeout: config.timeoutMs,
      fetch: this.done.fetch,
      defaultHeaders: config.headers,
    });
    this.wire = {
      model: config.model,
      stream: config.stream,
      streamUsage: config.streamUsage,
      maxTokensField: config.provider === 'openai' ? 'max_completion_tokens' : 'max_tokens',
      defaultMaxTokens: config.maxTokens,
      assistantAfterToolResults: config.provider === 'mistral',
      shortCallIds: config.provider === 'mistral',
    };
  }

  /** The request body this adapter sends for `request` (also what the benchmark times). */
  buildRequest(request: ModelRequest) {
    return toOpenAIRequest(request, this.wire, this.cache);
  }

  protected async *attempt(request: ModelRequest, deadline: FirstByteDeadline): AsyncGenerator<ModelEvent> {
    const body = this.buildRequest(request);
    // The SDK sends a body given in the options as it is, in place of its own JSON of `body`
    const options = {
      signal: deadline.signal,
      body: openAIBodyBytes(body, this.cache),
      headers: { 'content-type': 'application/json' },
    };
    if (body.stream) {
      const { data: stream, response } = await this.client.chat.completions
        .create(body as ChatCompletionCreateParamsStreaming, options)
        .withResponse();
      const parser = new OpenAIStreamParser();
      for await (const chunk of stream) {
        deadline.heard();
        yield* parser.push(chunk);
      }
      if (this.done.sawDone(response)) parser.markDone();
      yield* streamEnding(parser, this.provider, request.signal);
    } else {
      const completion = await this.client.chat.completions.create(
        body as ChatCompletionCreateParamsNonStreaming,
        options,
      );
      deadline.heard();
      const failed = errorInAnswer(completion, this.provider);
      if (failed) throw failed;
      yield* completionEvents(completion);
    }
  }

  override toProviderError(error: unknown): ProviderError {
    return openaiProviderError(error, this.provider, this.capture);
  }
}
