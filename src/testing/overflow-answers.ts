/** A wire family whose context-window refusal the stand-ins can answer with. */
export type OverflowFamily = 'openai' | 'gemini' | 'anthropic' | 'bedrock';

/**
 * The words each family refuses an over-long request with, in the form its real service uses (the
 * runtime recognises them by that form): OpenAI names the window and the count, Anthropic compares
 * the two, Bedrock says the input is too long, Gemini gives the count and the allowance.
 */
export function overflowMessage(
  family: OverflowFamily,
  promptTokens = 140_512,
  limitTokens = 128_000,
): string {
  switch (family) {
    case 'openai':
      return `This model's maximum context length is ${limitTokens} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`;
    case 'anthropic':
      return `prompt is too long: ${promptTokens} tokens > ${limitTokens} maximum`;
    case 'bedrock':
      return 'Input is too long for requested model.';
    case 'gemini':
      return `The input token count (${promptTokens}) exceeds the maximum number of tokens allowed (${limitTokens}).`;
  }
}
