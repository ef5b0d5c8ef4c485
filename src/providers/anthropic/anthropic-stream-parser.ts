import type { Message, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { jsonTextOf } from '../../core/json-text-of.js';
import type { ModelEvent } from '../../core/model.js';
import { finishEvent, type StopTable } from '../shared/stop-reason.js';
import type { EndingStreamParser } from '../shared/stream-ending.js';
import { ToolCallAssembler } from '../shared/tool-call-assembler.js';

/** Messages API `stop_reason` values. */
export const ANTHROPIC_STOP_REASONS: StopTable = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  stop_sequence: 'stop_sequence',
  refusal: 'content_filter',
  pause_turn: 'other',
};

interface InputCounts {
  readonly input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
}

/** Every prompt token: `input_tokens` leaves out those read from or written to the prompt cache. */
function promptTokens(usage: InputCounts): number {
  return (
    (usage.input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0)
  );
}

/** Turns Messages API stream events into events; tool inputs are assembled from `input_json_delta`s. */
export class AnthropicStreamParser implements EndingStreamParser {
  private readonly calls = new ToolCallAssembler();
  private stopReason: string | undefined;
  private inputTokens = 0;
  private outputTokens = 0;
  private sawUsage = false;
  private ended = false;

  /** True once `message_delta` has given the stop reason or `message_stop` has arrived. */
  get complete(): boolean {
    return this.ended || this.stopReason !== undefined;
  }

  /** The events one stream event yields now (text deltas); tool calls wait for `finish`. */
  push(event: RawMessageStreamEvent): ModelEvent[] {
    switch (event.type) {
      case 'message_start':
        this.sawUsage = true;
        this.inputTokens = event.message.usage ? promptTokens(event.message.usage) : 0;
        this.outputTokens = event.message.usage?.output_tokens ?? 0;
        return [];
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'tool_use') {
          const initial = block.input && Object.keys(block.input).length > 0 ? jsonTextOf(block.input) : '';
          this.calls.start(String(event.index), block.id, block.name, initial);
        } else if (block.type === 'text' && block.text) {
          return [{ type: 'text-delta', text: block.text }];
        }
        return [];
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta' && delta.text) return [{ type: 'text-delta', text: delta.text }];
        if (delta.type === 'input_json_delta') this.calls.append(String(event.index), delta.partial_json);
        return [];
      }
      case 'message_delta':
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        if (event.usage) {
          this.sawUsage = true;
          this.outputTokens = event.usage.output_tokens ?? this.outputTokens;
          // newer servers repeat the (cumulative) input counts here; older ones send only output_tokens
          if (event.usage.input_tokens != null) this.inputTokens = promptTokens(event.usage);
        }
        return [];
      case 'message_stop':
        this.ended = true;
        return [];
      default:
        return [];
    }
  }

  /** The assembled tool calls and the finish event. */
  finish(): ModelEvent[] {
    const calls = this.calls.finish();
    const usage = this.sawUsage
      ? { inputTokens: this.inputTokens, outputTokens: this.outputTokens }
      : undefined;
    return [...calls, finishEvent(this.stopReason, ANTHROPIC_STOP_REASONS, calls.length > 0, usage)];
  }
}

/** The events of a non-streamed message. */
export function messageEvents(message: Message): ModelEvent[] {
  const events: ModelEvent[] = [];
  const calls = new ToolCallAssembler();
  message.content.forEach((block, i) => {
    if (block.type === 'text' && block.text) events.push({ type: 'text-delta', text: block.text });
    if (block.type === 'tool_use')
      calls.start(String(i), block.id, block.name, jsonTextOf(block.input ?? {}));
  });
  const assembled = calls.finish();
  events.push(...assembled);
  const usage = message.usage
    ? { inputTokens: promptTokens(message.usage), outputTokens: message.usage.output_tokens ?? 0 }
    : undefined;
  events.push(
    finishEvent(message.stop_reason ?? undefined, ANTHROPIC_STOP_REASONS, assembled.length > 0, usage),
  );
  return events;
}
