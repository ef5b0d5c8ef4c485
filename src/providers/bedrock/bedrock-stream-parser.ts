import type {
  ConverseCommandOutput,
  ConverseStreamOutput,
  TokenUsage,
} from '@aws-sdk/client-bedrock-runtime';
import { jsonTextOf } from '../../core/json-text-of.js';
import type { ModelEvent, Usage } from '../../core/model.js';
import { finishEvent, type StopTable } from '../shared/stop-reason.js';
import type { EndingStreamParser } from '../shared/stream-ending.js';
import { ToolCallAssembler } from '../shared/tool-call-assembler.js';

/** Converse `stopReason` values. */
export const BEDROCK_STOP_REASONS: StopTable = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  model_context_window_exceeded: 'max_tokens',
  stop_sequence: 'stop_sequence',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
  malformed_model_output: 'other',
  malformed_tool_use: 'other',
};

function usageOf(usage: TokenUsage | undefined): Usage | undefined {
  if (!usage) return undefined;
  // inputTokens leaves out the prompt tokens read from or written to the prompt cache
  const input =
    (usage.inputTokens ?? 0) + (usage.cacheReadInputTokens ?? 0) + (usage.cacheWriteInputTokens ?? 0);
  return { inputTokens: input, outputTokens: usage.outputTokens ?? 0 };
}

/** Turns ConverseStream events into events; blocks are keyed by `contentBlockIndex`. */
export class BedrockStreamParser implements EndingStreamParser {
  private readonly calls = new ToolCallAssembler();
  private stopReason: string | undefined;
  private usage: Usage | undefined;
  private stopped = false;

  /** True once `messageStop` has arrived (the `metadata` event after it is optional). */
  get complete(): boolean {
    return this.stopped;
  }

  /** The events one stream event yields now (text deltas); tool calls wait for `finish`. */
  push(event: ConverseStreamOutput): ModelEvent[] {
    if (event.contentBlockStart) {
      const start = event.contentBlockStart.start?.toolUse;
      if (start)
        this.calls.start(String(event.contentBlockStart.contentBlockIndex), start.toolUseId, start.name);
      return [];
    }
    if (event.contentBlockDelta) {
      const { delta, contentBlockIndex } = event.contentBlockDelta;
      if (delta?.text) return [{ type: 'text-delta', text: delta.text }];
      const fragment = delta?.toolUse?.input;
      if (fragment !== undefined) this.calls.append(String(contentBlockIndex), fragment);
      return [];
    }
    if (event.messageStop) {
      this.stopped = true;
      this.stopReason = event.messageStop.stopReason;
    }
    if (event.metadata) this.usage = usageOf(event.metadata.usage);
    return [];
  }

  /** The assembled tool calls and the finish event. */
  finish(): ModelEvent[] {
    const calls = this.calls.finish();
    return [...calls, finishEvent(this.stopReason, BEDROCK_STOP_REASONS, calls.length > 0, this.usage)];
  }
}

/** The events of a non-streamed Converse answer. */
export function converseEvents(output: ConverseCommandOutput): ModelEvent[] {
  const events: ModelEvent[] = [];
  const calls = new ToolCallAssembler();
  (output.output?.message?.content ?? []).forEach((block, i) => {
    if (block.text) events.push({ type: 'text-delta', text: block.text });
    if (block.toolUse) {
      calls.start(
        String(i),
        block.toolUse.toolUseId,
        block.toolUse.name,
        // a string is an input too deep for the SDK, kept as its JSON text (see keepDeepToolInputs)
        typeof block.toolUse.input === 'string' ? block.toolUse.input : jsonTextOf(block.toolUse.input ?? {}),
      );
    }
  });
  const assembled = calls.finish();
  events.push(...assembled);
  events.push(
    finishEvent(output.stopReason, BEDROCK_STOP_REASONS, assembled.length > 0, usageOf(output.usage)),
  );
  return events;
}
