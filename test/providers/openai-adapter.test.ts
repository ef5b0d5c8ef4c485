import { describeAdapterContract } from './adapter.contract.js';

const STOPS = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'content_filter',
  error: 'other',
} as const;

describeAdapterContract({
  label: 'OpenAI-compatible',
  family: 'openai',
  model: 'gpt-test',
  corpusProviders: [
    'openai-chat',
    'openai-responses',
    'gemini-native',
    'gemini-openai-compat',
    'openrouter',
    'mistral',
  ],
  stopTable: STOPS,
});

// Gemini's compatible endpoint: its rules, array-wrapped errors, index-less whole tool calls, "stop" for tool turns
describeAdapterContract({
  label: 'OpenAI SDK on the Gemini-compatible stand-in',
  family: 'openai',
  mode: 'gemini',
  model: 'gemini-test',
  corpusProviders: [],
  stopTable: STOPS,
});
