import type { ProviderDefaults, ProviderName } from '../shared/provider-config.js';

/** Most tools a Chat Completions request may carry (`Invalid 'tools': array too long`). */
export const OPENAI_MAX_TOOLS = 128;

/** The providers that speak Chat Completions. */
type OpenAIProvider = Extract<
  ProviderName,
  'openai' | 'openrouter' | 'gemini' | 'mistral' | 'openai-compatible'
>;

/** Where each OpenAI-compatible provider is, and where its key and URL come from. */
export const OPENAI_ENDPOINTS: Readonly<Record<OpenAIProvider, ProviderDefaults>> = {
  openai: {
    family: 'openai',
    keyVars: ['OPENAI_API_KEY'],
    baseURLVars: ['OPENAI_BASE_URL'],
    baseURL: 'https://api.openai.com/v1',
    keyRequired: true,
  },
  openrouter: {
    family: 'openai',
    keyVars: ['OPENROUTER_API_KEY'],
    baseURLVars: ['OPENROUTER_BASE_URL'],
    baseURL: 'https://openrouter.ai/api/v1',
    keyRequired: true,
  },
  gemini: {
    family: 'openai',
    keyVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    baseURLVars: ['GEMINI_BASE_URL'],
    baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    keyRequired: true,
  },
  mistral: {
    family: 'openai',
    keyVars: ['MISTRAL_API_KEY'],
    baseURLVars: ['MISTRAL_BASE_URL'],
    baseURL: 'https://api.mistral.ai/v1',
    keyRequired: true,
    // Mistral refuses `stream_options`
    streamUsage: false,
  },
  'openai-compatible': {
    family: 'openai',
    keyVars: ['OPENAI_API_KEY'],
    baseURLVars: ['OPENAI_BASE_URL'],
    keyRequired: false,
    baseURLRequired: true,
  },
};
