import { describeAdapterContract } from './adapter.contract.js';

describeAdapterContract({
  label: 'Bedrock',
  family: 'bedrock',
  // a Claude model id: Converse takes toolResult.status for it
  model: 'anthropic.claude-test-v1:0',
  corpusProviders: ['bedrock-converse', 'bedrock-converse-stream'],
  stopTable: {
    end_turn: 'end_turn',
    tool_use: 'tool_use',
    max_tokens: 'max_tokens',
    model_context_window_exceeded: 'max_tokens',
    stop_sequence: 'stop_sequence',
    guardrail_intervened: 'content_filter',
    content_filtered: 'content_filter',
    malformed_tool_use: 'other',
  },
});
