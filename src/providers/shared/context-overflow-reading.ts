import { ContextOverflowError } from '../../core/context-overflow.js';
import type { ProviderError } from '../../core/errors.js';

/** Provider codes that mean the request is longer than the model's context window. */
const OVERFLOW_CODES: ReadonlySet<string> = new Set(['context_length_exceeded', 'string_above_max_context']);

/**
 * The words each family uses for it: OpenAI and OpenAI-compatible servers ("maximum context length is
 * N tokens"), Anthropic ("prompt is too long: N tokens > M maximum", "exceed context limit"), Bedrock
 * ("Input is too long for requested model", "too many input tokens"), Gemini ("The input token count (N)
 * exceeds the maximum number of tokens allowed (M)").
 */
const OVERFLOW_WORDS = [
  /maximum context length is \d+/i,
  /prompt is too long/i,
  /exceeds? (the )?context (limit|window|length)/i,
  /input is too long for (the )?requested model/i,
  /too many (total |input )?tokens/i,
  /input token count.{0,40}exceeds the maximum number of tokens/i,
];

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
  const openai = /maximum context length is (\d+) tokens.{0,80}?(\d+) tokens/i.exec(text);
  if (openai) return { limitTokens: Number(openai[1]), promptTokens: Number(openai[2]) };
  return {};
}

/**
 * The same error as a `ContextOverflowError` when the provider's code or words say the request does not
 * fit the model's context window; else `error` unchanged.
 */
export function overflowOr(error: ProviderError): ProviderError {
  if (!overflowStatus(error.status)) return error;
  const said = `${error.message}\n${error.rawBody}`;
  const byCode = error.providerCode !== undefined && OVERFLOW_CODES.has(error.providerCode);
  if (!byCode && !OVERFLOW_WORDS.some((words) => words.test(said))) return error;
  return new ContextOverflowError(error, numbersIn(said));
}
