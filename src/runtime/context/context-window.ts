/** The window assumed for a model neither the config nor the table below knows: small enough to be safe. */
export const DEFAULT_CONTEXT_WINDOW = 32_000;

/** Context windows of known model families, by a pattern on the model's name; the first match wins. */
const KNOWN_WINDOWS: readonly (readonly [RegExp, number])[] = [
  [/claude/i, 200_000],
  [/gemini-(1\.5|2|3)/i, 1_048_576],
  [/gpt-4\.1/i, 1_047_576],
  [/gpt-5/i, 400_000],
  [/gpt-4o|gpt-4-turbo|o1|o3|o4/i, 128_000],
  [/gpt-4/i, 8_192],
  [/gpt-3\.5/i, 16_385],
  [/mistral-large|mistral-medium|codestral|magistral/i, 128_000],
  [/llama-?3|llama3/i, 128_000],
  [/deepseek/i, 64_000],
  [/qwen/i, 32_768],
  [/nova-(pro|lite)/i, 300_000],
];

/** The model's context window in tokens: the configured one, else the known family's, else the default. */
export function contextWindowOf(model: string, configured?: number): number {
  if (configured !== undefined && Number.isFinite(configured) && configured > 0) return configured;
  return KNOWN_WINDOWS.find(([pattern]) => pattern.test(model))?.[1] ?? DEFAULT_CONTEXT_WINDOW;
}

/** The room a request may fill: at most `COMPACT_AT` of the window, and always room kept for the answer. */
export function requestRoom(window: number): number {
  const answerRoom = Math.min(8_192, Math.floor(window * 0.15));
  return Math.min(Math.floor(window * COMPACT_AT), window - answerRoom);
}

/** The share of the window past which older turns are summarized before the request is sent. */
export const COMPACT_AT = 0.8;
