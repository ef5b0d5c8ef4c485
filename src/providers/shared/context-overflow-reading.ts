import { ContextOverflowError } from '../../core/context-overflow.js';
import type { ProviderError } from '../../core/errors.js';

/** Provider codes that mean the request is longer than the model's context window. */
const OVERFLOW_CODES: ReadonlySet<string> = new Set(['context_length_exceeded', 'string_above_max_context']);

/**
 * The words each family uses for it: OpenAI and OpenAI-compatible servers ("maximum context length is
 * N tokens", vLLM-based ones "too large for model with N maximum context length"), Anthropic ("prompt
 * is too long: N tokens > M maximum", "exceed context limit"), Bedrock ("Input is too long for requested
 * model"; Claude on Bedrock as Anthropic), Gemini ("The input token count (N) exceeds the maximum number
 * of tokens allowed (M)").
 */
const OVERFLOW_WORDS = [
  /maximum context length/i,
  /prompt is too long/i,
  /exceeds? (the )?context (limit|window|length)/i,
  /input is too long for (the )?requested model/i,
  /too many (total |input )tokens/i,
  /input token count.{0,40}exceeds the maximum number of tokens/i,
];

/**
 * Words of a rate limit, which may also speak of too many tokens: Bedrock's throttling ("Too many tokens,
 * please wait before trying again") comes mid-stream without a status, and relays pass it on in a stream.
 */
const THROTTLE_WORDS = /please wait|rate.?limit|throttl|per (second|minute|hour|day)/i;

/** Statuses an overflow comes with: 400 (every family), 413 (some proxies), none (an error mid-stream). */
function overflowStatus(status: number | undefined): boolean {
  return status === undefined || status === 400 || status === 413;
}

function numbersIn(text: string): { promptTokens?: number; limitTokens?: number } {
  const gemini = /input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)/i.exec(
    text,
  );
  if (gemini) return { promptTokens: Number(gemini[1]), limitTokens: Number(gemini[2]) };
  const anthropic = /(\d+) tokens? > (\d+) maximum/i.exec(text);
  if (anthropic) return { promptTokens: Number(anthropic[1]), limitTokens: Number(anthropic[2]) };
  const limit = /maximum context length is (\d+) tokens/i.exec(text);
  if (limit === null) return {};
  // vLLM-based servers may name the answer's room first, then the prompt ("N in the messages", "N input tokens")
  const prompt =
    /(\d+) (in the messages|input tokens)/i.exec(text) ??
    /maximum context length is \d+ tokens.{0,80}?(\d+) tokens/i.exec(text);
  return { limitTokens: Number(limit[1]), ...(prompt ? { promptTokens: Number(prompt[1]) } : {}) };
}

/**
 * The same error as a `ContextOverflowError` when the provider's code or words say the request does not
 * fit the model's context window; else `error` unchanged.
 */
export function overflowOr(error: ProviderError): ProviderError {
  if (!overflowStatus(error.status)) return error;
  const said = `${error.message}\n${error.rawBody}`;
  const byCode = error.providerCode !== undefined && OVERFLOW_CODES.has(error.providerCode);
  if (!byCode && (THROTTLE_WORDS.test(said) || !OVERFLOW_WORDS.some((words) => words.test(said))))
    return error;
  return new ContextOverflowError(error, numbersIn(said));
}
