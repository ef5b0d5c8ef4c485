/**
 * Model providers: one adapter per wire family on its official SDK, built from a user's config, and
 * the mapping of a provider's rejection back onto the tools a request sent. (The factory lives in
 * `shared/` because only `shared/` may reach into every vendor folder.)
 */
export { createModelAdapter } from './shared/create-model-adapter.js';
export {
  type AwsCredentials,
  familyOf,
  isLocalAddress,
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
  rejectionFinding,
  toolsAttributedInRejection,
  toolsNamedInRejection,
} from './shared/tools-named-in-rejection.js';
