import { anthropicToolPaths } from './anthropic/anthropic-dialect.js';
import { bedrockToolPaths } from './bedrock/bedrock-dialect.js';
import { OPENAI_DIALECTS } from './openai/openai-dialects.js';
import type { WireFamily } from './shared/provider-config.js';
import type { RejectionDialect } from './shared/rejection-dialect.js';

/**
 * The dialects an OpenAI-compatible endpoint may answer in: OpenAI's own, Gemini's, Mistral's, and
 * whatever upstream OpenRouter relays (Anthropic, Bedrock).
 */
export const OPENAI_FAMILY_DIALECTS: readonly RejectionDialect[] = [
  ...OPENAI_DIALECTS,
  anthropicToolPaths,
  bedrockToolPaths,
];

/** Anthropic's Messages API dialect. */
export const ANTHROPIC_DIALECTS: readonly RejectionDialect[] = [anthropicToolPaths];

/** Bedrock Converse: its own paths, plus Anthropic's when a Claude model's validator answers. */
export const BEDROCK_DIALECTS: readonly RejectionDialect[] = [bedrockToolPaths, anthropicToolPaths];

/**
 * Each wire family's dialects. They are gathered here, beside the factory, because a family's answers
 * may carry another vendor's forms and a vendor's folder never imports a sibling's.
 */
export const FAMILY_DIALECTS: Readonly<Record<WireFamily, readonly RejectionDialect[]>> = {
  openai: OPENAI_FAMILY_DIALECTS,
  anthropic: ANTHROPIC_DIALECTS,
  bedrock: BEDROCK_DIALECTS,
};
