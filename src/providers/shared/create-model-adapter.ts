import type { ModelAdapter } from '../../core/model.js';
import { AnthropicAdapter } from '../anthropic/anthropic-adapter.js';
import { BedrockAdapter } from '../bedrock/bedrock-adapter.js';
import { OpenAIAdapter } from '../openai/openai-adapter.js';
import { type ProviderConfig, resolveProviderConfig } from './provider-config.js';

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
