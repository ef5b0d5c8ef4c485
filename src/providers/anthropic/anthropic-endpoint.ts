import type { ProviderDefaults } from '../shared/provider-config.js';

/** Where Anthropic's Messages API is, and where its key and URL come from. */
export const ANTHROPIC_ENDPOINT: ProviderDefaults = {
  family: 'anthropic',
  keyVars: ['ANTHROPIC_API_KEY'],
  baseURLVars: ['ANTHROPIC_BASE_URL'],
  baseURL: 'https://api.anthropic.com',
  keyRequired: true,
};
