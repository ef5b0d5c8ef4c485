import type { ModelAdapter } from '../core/model.js';
import { AnthropicAdapter } from './anthropic/anthropic-adapter.js';
import { BedrockAdapter } from './bedrock/bedrock-adapter.js';
import { OpenAIAdapter } from './openai/openai-adapter.js';
import { type ProviderConfig, resolveProviderConfig } from './shared/provider-config.js';

export { AnthropicAdapter } from './anthropic/anthropic-adapter.js';
export { BedrockAdapter } from './bedrock/bedrock-adapter.js';
export { OpenAIAdapter } from './openai/openai-adapter.js';
export {
  type AwsCredentials,
  familyOf,
  PROVIDER_NAMES,
  type ProviderConfig,
  type ProviderName,
  type ResolvedProviderConfig,
  type RetrySettings,
  resolveProviderConfig,
  type WireFamily,
} from './shared/provider-config.js';
export {
  ANTHROPIC_DIALECTS,
  BEDROCK_DIALECTS,
  OPENAI_FAMILY_DIALECTS,
  toolsNamedInRejection,
} from './shared/tools-named-in-rejection.js';

/**
 * The model adapter a config asks for: `openai`, `openrouter`, `gemini` (its OpenAI-compatible
 * endpoint), `mistral` and any `openai-compatible` base URL speak Chat Completions through the `openai`
 * SDK; `anthropic` the Messages API; `bedrock` Converse. Missing keys, regions or URLs are an
 * `InputError` naming what to set.
 */
export function createModelAdapter(config: ProviderConfig): ModelAdapter {
  const resolved = resolveProviderConfig(config);
  switch (resolved.family) {
    case 'anthropic':
      return new AnthropicAdapter(resolved);
    case 'bedrock':
      return new BedrockAdapter(resolved);
    case 'openai':
      return new OpenAIAdapter(resolved);
  }
}
