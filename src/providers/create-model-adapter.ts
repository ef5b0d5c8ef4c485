import type { ModelAdapter } from '../core/model.js';
import { DeferredAdapter, preloadFamily } from './deferred-adapter.js';
import { FAMILY_DIALECTS } from './family-dialects.js';
import { resolveProviderConfig } from './resolve-provider-config.js';
import type { ProviderConfig } from './shared/provider-config.js';

/**
 * The model adapter a config asks for: `openai`, `openrouter`, `gemini` (its OpenAI-compatible
 * endpoint), `mistral` and any `openai-compatible` base URL speak Chat Completions through the `openai`
 * SDK; `anthropic` the Messages API; `bedrock` Converse. Missing keys, regions or URLs are an
 * `InputError` naming what to set, at once; the family's code and SDK are imported on the first call.
 */
export function createModelAdapter(config: ProviderConfig): ModelAdapter {
  const resolved = resolveProviderConfig(config);
  return new DeferredAdapter(resolved, FAMILY_DIALECTS[resolved.family]);
}

/**
 * Starts loading the code and SDK of the family `config` speaks, for a program that builds its adapter
 * next and sends at once (the CLI's chat). A config that cannot make an adapter loads nothing: making
 * it says what is wrong.
 */
export function preloadProvider(config: ProviderConfig): void {
  let family: ReturnType<typeof resolveProviderConfig>['family'];
  try {
    family = resolveProviderConfig(config).family;
  } catch {
    return;
  }
  preloadFamily(family);
}
