import type { ModelAdapter } from '../core/model.js';
import { AnthropicAdapter } from './anthropic/anthropic-adapter.js';
import { BedrockAdapter } from './bedrock/bedrock-adapter.js';
import { FAMILY_DIALECTS } from './family-dialects.js';
import { OpenAIAdapter } from './openai/openai-adapter.js';
import { resolveProviderConfig } from './resolve-provider-config.js';
import type { ProviderConfig } from './shared/provider-config.js';

/**
 * The model adapter a config asks for: `openai`, `openrouter`, `gemini` (its OpenAI-compatible
 * endpoint), `mistral` and any `openai-compatible` base URL speak Chat Completions through the `openai`
 * SDK; `anthropic` the Messages API; `bedrock` Converse. Missing keys, regions or URLs are an
 * `InputError` naming what to set.
 */
export function createModelAdapter(config: ProviderConfig): ModelAdapter {
  const resolved = resolveProviderConfig(config);
  const dialects = FAMILY_DIALECTS[resolved.family];
  switch (resolved.family) {
    case 'anthropic':
      return new AnthropicAdapter(resolved, { dialects });
    case 'bedrock':
      return new BedrockAdapter(resolved, { dialects });
    case 'openai':
      return new OpenAIAdapter(resolved, { dialects });
  }
}
