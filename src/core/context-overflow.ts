import { ProviderError } from './errors.js';

/**
 * The provider refused the request because it does not fit the model's context window (OpenAI's
 * `context_length_exceeded`, Anthropic's "prompt is too long", Bedrock's "Input is too long", Gemini's
 * "exceeds the maximum number of tokens"). Never a tool-schema rejection and never retried as it is:
 * the turn makes the conversation smaller and sends it again once.
 */
export class ContextOverflowError extends ProviderError {
  /** The prompt's size in tokens as the provider counted it, when it said. */
  readonly promptTokens: number | undefined;
  /** The model's limit in tokens as the provider gave it, when it said. */
  readonly limitTokens: number | undefined;

  constructor(from: ProviderError, counts: { promptTokens?: number; limitTokens?: number }) {
    super({
      provider: from.provider,
      status: from.status,
      message: from.message,
      providerCode: from.providerCode,
      retryable: false,
      requestId: from.requestId,
      rawBody: from.rawBody,
      cause: from.cause,
      code: 'context_overflow',
    });
    this.promptTokens = counts.promptTokens;
    this.limitTokens = counts.limitTokens;
  }
}

/** True when `error` is a provider's refusal of a request too long for the model's context window. */
export function isContextOverflow(error: unknown): error is ContextOverflowError {
  return error instanceof ContextOverflowError;
}
