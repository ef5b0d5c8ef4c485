/**
 * Model providers: one adapter per wire family on its official SDK, built from a user's config, and
 * the mapping of a provider's rejection back onto the tools a request sent. (The factory, the config's
 * defaults and each family's dialects live here, at the root, because only the root gathers every
 * vendor's folder.)
 */
export { createModelAdapter, preloadProvider } from './create-model-adapter.js';
export {
  ANTHROPIC_DIALECTS,
  BEDROCK_DIALECTS,
  FAMILY_DIALECTS,
  OPENAI_FAMILY_DIALECTS,
} from './family-dialects.js';
export { familyOf, isLocalAddress, resolveProviderConfig } from './resolve-provider-config.js';
export {
  type AwsCredentials,
  PROVIDER_NAMES,
  type ProviderConfig,
  type ProviderName,
  type ResolvedProviderConfig,
  type RetrySettings,
  type WireFamily,
} from './shared/provider-config.js';
export {
  rejectionFinding,
  toolsAttributedInRejection,
  toolsNamedInRejection,
} from './shared/tools-named-in-rejection.js';
