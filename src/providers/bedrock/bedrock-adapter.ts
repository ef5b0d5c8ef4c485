import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { ConverseCommand, ConverseStreamCommand } from '@aws-sdk/client-bedrock-runtime';
import type { ProviderError } from '../../core/errors.js';
import type { ModelEvent, ModelRequest } from '../../core/model.js';
import type { FirstByteDeadline } from '../shared/first-byte.js';
import type { ResolvedProviderConfig } from '../shared/provider-config.js';
import { transportProviderError } from '../shared/provider-errors.js';
import type { RejectionDialect } from '../shared/rejection-dialect.js';
import { SdkModelAdapter } from '../shared/sdk-model-adapter.js';
import { streamEnding } from '../shared/stream-ending.js';
import { bedrockClient } from './bedrock-client.js';
import { type BedrockErrorContext, bedrockProviderError, keepErrorBodies } from './bedrock-errors.js';
import {
  acceptsToolResultStatus,
  type BedrockRequestOptions,
  bedrockForms,
  toBedrockRequest,
} from './bedrock-request.js';
import { BedrockStreamParser, converseEvents } from './bedrock-stream-parser.js';
import { keepDeepToolInputs } from './deep-tool-inputs.js';

/** What one attempt tells the error conversion (see `BedrockErrorContext`). */
type AttemptContext = { -readonly [K in keyof BedrockErrorContext]: BedrockErrorContext[K] };

/** Bedrock Converse / ConverseStream through `@aws-sdk/client-bedrock-runtime`. */
export class BedrockAdapter extends SdkModelAdapter<AttemptContext> {
  readonly provider = 'bedrock';
  private readonly client: BedrockRuntimeClient;
  private readonly wire: BedrockRequestOptions;
  /** Each history message's blocks, made once for every request of every session this adapter serves. */
  private readonly forms = bedrockForms();

  constructor(config: ResolvedProviderConfig, options: { readonly dialects: readonly RejectionDialect[] }) {
    super(config, options.dialects);
    this.client = bedrockClient(config);
    keepErrorBodies(this.client);
    keepDeepToolInputs(this.client);
    if (Object.keys(config.headers).length > 0) {
      this.client.middlewareStack.add(
        (next) => async (args) => {
          const request = args.request as { headers?: Record<string, string> };
          if (request.headers) Object.assign(request.headers, config.headers);
          return next(args);
        },
        { step: 'build', name: 'toolseamExtraHeaders' },
      );
    }
    this.wire = {
      model: config.model,
      toolResultStatus: config.toolResultStatus ?? acceptsToolResultStatus(config.model),
      defaultMaxTokens: config.maxTokens,
    };
  }

  /** The Converse input this adapter sends for `request`. */
  buildRequest(request: ModelRequest) {
    return toBedrockRequest(request, this.wire, this.forms);
  }

  /** Each call's attempts note for the error conversion whether its stream had started, and its request id. */
  protected override startCall(): AttemptContext {
    return {};
  }

  protected async *attempt(
    request: ModelRequest,
    deadline: FirstByteDeadline,
    context: AttemptContext,
  ): AsyncGenerator<ModelEvent> {
    // an abort listener added to a signal that has already fired never runs
    if (request.signal?.aborted)
      throw transportProviderError(this.provider, 'aborted', request.signal.reason);
    const input = this.buildRequest(request);
    context.timedOut = false;
    context.inStream = false;
    // an in-stream failure of this attempt is this attempt's, never the one before it
    delete context.requestId;
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    deadline.signal.addEventListener('abort', onAbort, { once: true });
    // the timeout covers the wait for the answer to start, as in the other SDKs
    const timer = setTimeout(() => {
      context.timedOut = true;
      controller.abort();
    }, this.config.timeoutMs);
    try {
      if (this.config.stream) {
        const output = await this.client.send(new ConverseStreamCommand(input), {
          abortSignal: controller.signal,
        });
        clearTimeout(timer);
        if (output.$metadata.requestId) context.requestId = output.$metadata.requestId;
        context.inStream = true;
        const parser = new BedrockStreamParser();
        for await (const event of output.stream ?? []) {
          deadline.heard();
          yield* parser.push(event);
        }
        yield* streamEnding(parser, this.provider, request.signal);
      } else {
        const output = await this.client.send(new ConverseCommand(input), { abortSignal: controller.signal });
        deadline.heard();
        yield* converseEvents(output);
      }
    } finally {
      clearTimeout(timer);
      deadline.signal.removeEventListener('abort', onAbort);
    }
  }

  override toProviderError(error: unknown, context: BedrockErrorContext = {}): ProviderError {
    return bedrockProviderError(error, context);
  }
}
