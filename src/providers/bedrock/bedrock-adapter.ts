import {
  BedrockRuntimeClient,
  type BedrockRuntimeClientConfig,
  ConverseCommand,
  ConverseStreamCommand,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { ProviderError } from '../../core/errors.js';
import type { ModelAdapter, ModelEvent, ModelRequest, WireTool } from '../../core/model.js';
import { type FirstByteDeadline, underFirstByteDeadline } from '../shared/first-byte.js';
import type { ResolvedProviderConfig } from '../shared/provider-config.js';
import { transportProviderError } from '../shared/provider-errors.js';
import { streamEnding } from '../shared/stream-ending.js';
import {
  BEDROCK_DIALECTS,
  settledToolRejection,
  toolsAttributedInRejection,
  toolsNamedInRejection,
} from '../shared/tools-named-in-rejection.js';
import { withRetries } from '../shared/with-retries.js';
import { type BedrockErrorContext, bedrockProviderError, keepErrorBodies } from './bedrock-errors.js';
import { acceptsToolResultStatus, type BedrockRequestOptions, toBedrockRequest } from './bedrock-request.js';
import { BedrockStreamParser, converseEvents } from './bedrock-stream-parser.js';
import { keepDeepToolInputs } from './deep-tool-inputs.js';

/** What one attempt tells the error conversion (see `BedrockErrorContext`). */
type AttemptContext = { -readonly [K in keyof BedrockErrorContext]: BedrockErrorContext[K] };

/** Bedrock Converse / ConverseStream through `@aws-sdk/client-bedrock-runtime`. */
export class BedrockAdapter implements ModelAdapter {
  readonly provider = 'bedrock';
  readonly model: string;
  private readonly client: BedrockRuntimeClient;
  private readonly config: ResolvedProviderConfig;
  private readonly wire: BedrockRequestOptions;

  constructor(config: ResolvedProviderConfig) {
    this.config = config;
    this.model = config.model;
    const clientConfig: BedrockRuntimeClientConfig = {
      maxAttempts: 1,
      // HTTP/1.1: Converse needs no HTTP/2, and plain HTTP endpoints (proxies, stand-ins) speak 1.1. A
      // stream gone silent fails after timeoutMs instead of waiting forever (Node's fetch, under the
      // other SDKs, gives up on a silent body after 5 minutes; this handler never does on its own).
      requestHandler: new NodeHttpHandler({ socketTimeout: config.timeoutMs }),
    };
    if (config.region) clientConfig.region = config.region;
    if (config.baseURL) clientConfig.endpoint = config.baseURL;
    if (config.credentials) clientConfig.credentials = config.credentials;
    this.client = new BedrockRuntimeClient(clientConfig);
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
    return toBedrockRequest(request, this.wire);
  }

  stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    const context: AttemptContext = {};
    return withRetries({
      attempt: () =>
        underFirstByteDeadline(this.config.firstByteTimeoutMs, request.signal, this.provider, (deadline) =>
          this.attempt(request, context, deadline),
        ),
      toProviderError: (error) =>
        settledToolRejection(this.toProviderError(error, context), request.tools, BEDROCK_DIALECTS),
      settings: this.config.retry,
      signal: request.signal,
    });
  }

  private async *attempt(
    request: ModelRequest,
    context: AttemptContext,
    deadline: FirstByteDeadline,
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

  /** Any error this adapter's SDK threw, as a `ProviderError` with the raw body. */
  toProviderError(error: unknown, context: BedrockErrorContext = {}): ProviderError {
    return bedrockProviderError(error, context);
  }

  toolsNamedInRejection(error: unknown, sent: readonly WireTool[]): string[] {
    return toolsNamedInRejection(this.toProviderError(error), sent, BEDROCK_DIALECTS);
  }

  toolsAttributedInRejection(error: unknown, sent: readonly WireTool[]): string[] {
    return toolsAttributedInRejection(this.toProviderError(error), sent, BEDROCK_DIALECTS);
  }
}
