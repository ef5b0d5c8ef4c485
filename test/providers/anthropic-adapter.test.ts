import { describeAdapterContract } from './adapter.contract.js';

describeAdapterContract({
  label: 'Anthropic',
  family: 'anthropic',
  model: 'claude-test',
  corpusProviders: ['anthropic'],
  stopTable: {
    end_turn: 'end_turn',
    tool_use: 'tool_use',
    max_tokens: 'max_tokens',
    model_context_window_exceeded: 'max_tokens',
    stop_sequence: 'stop_sequence',
    refusal: 'content_filter',
    pause_turn: 'other',
  },
});
