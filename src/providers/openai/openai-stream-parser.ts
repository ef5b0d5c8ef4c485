import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelEvent, Usage } from '../../core/model.js';
import { finishEvent, type StopTable } from '../shared/stop-reason.js';
import type { EndingStreamParser } from '../shared/stream-ending.js';
import { ToolCallAssembler } from '../shared/tool-call-assembler.js';

/** Chat Completions `finish_reason` values. */
export const OPENAI_STOP_REASONS: StopTable = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'content_filter',
};

function usageOf(usage: ChatCompletion['usage'] | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  return { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 };
}

type ChunkToolCall = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];

/**
 * Turns Chat Completions chunks into events. Tool calls are assembled here from the raw deltas: keyed by
 * `index` when present, else by `id` (Gemini's compatible endpoint leaves `index` out and sends each call
 * whole), else appended to the call in progress — so no call is dropped.
 */
export class OpenAIStreamParser implements EndingStreamParser {
  private readonly calls = new ToolCallAssembler();
  /** The slot of the call each `index` holds now. */
  private readonly byIndex = new Map<number, string>();
  /** The id the wire gave each indexed slot (a slot may start before its id arrives). */
  private readonly wireIds = new Map<string, string>();
  private finishReason: string | undefined;
  private usage: Usage | undefined;
  private terminated = false;

  /**
   * True once a choice has said why it finished (usage-only chunks and `[DONE]` may follow), or the
   * server closed the stream with `[DONE]` without ever saying why (some compatible servers leave
   * `finish_reason` null throughout).
   */
  get complete(): boolean {
    return this.finishReason !== undefined || this.terminated;
  }

  /** Notes that the stream carried `data: [DONE]`, the server's own word that the answer is whole. */
  markDone(): void {
    this.terminated = true;
  }

  /** The events one chunk yields now (text deltas); tool calls wait for `finish`. */
  push(chunk: ChatCompletionChunk): ModelEvent[] {
    const events: ModelEvent[] = [];
    const usage = usageOf(chunk.usage);
    if (usage) this.usage = usage;
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== undefined && choice.index !== 0) continue;
      const delta = choice.delta;
      if (delta?.content) events.push({ type: 'text-delta', text: delta.content });
      // A refusal is the model's answer to show, in a field of its own instead of content
      if (delta?.refusal) events.push({ type: 'text-delta', text: delta.refusal });
      for (const call of delta?.tool_calls ?? []) this.addCall(call);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return events;
  }

  private addCall(call: ChunkToolCall): void {
    const fn = call.function;
    const indexed = typeof call.index === 'number';
    // a call with neither index nor id but a name is a new call; with none of them, a continuation
    const key = indexed
      ? this.keyOfIndex(call.index, call.id)
      : call.id
        ? `id${call.id}`
        : fn?.name
          ? `n${this.calls.size}`
          : undefined;
    if (key !== undefined && (!this.calls.has(key) || fn?.name || call.id || !indexed)) {
      this.calls.start(key, call.id, fn?.name);
    }
    if (fn?.arguments) this.calls.append(key, fn.arguments);
    const signature = thoughtSignature(call);
    if (signature !== undefined) this.calls.sign(key, signature);
  }

  /**
   * The slot of the call at `index`. A different id at an index already in use is a new call: some
   * servers (Ollama) send every parallel call at index 0, each under its own id.
   */
  private keyOfIndex(index: number, id: string | undefined): string {
    const current = this.byIndex.get(index);
    if (current !== undefined) {
      const known = this.wireIds.get(current);
      if (!id || known === undefined || known === id) {
        if (id) this.wireIds.set(current, id);
        return current;
      }
    }
    const key = current === undefined ? `i${index}` : `i${index}#${this.calls.size}`;
    this.byIndex.set(index, key);
    if (id) this.wireIds.set(key, id);
    return key;
  }

  /** The assembled tool calls and the finish event. */
  finish(): ModelEvent[] {
    const calls = this.calls.finish();
    return [...calls, finishEvent(this.finishReason, OPENAI_STOP_REASONS, calls.length > 0, this.usage)];
  }
}

/**
 * Gemini's thought signature on a call (`extra_content.google.thought_signature`), which Gemini 3
 * refuses the next request without; the openai SDK's types do not know the field.
 */
function thoughtSignature(call: object): string | undefined {
  const extra = (call as { extra_content?: { google?: { thought_signature?: unknown } } }).extra_content;
  const signature = extra?.google?.thought_signature;
  return typeof signature === 'string' && signature !== '' ? signature : undefined;
}

/** The events of a non-streamed completion. */
export function completionEvents(completion: ChatCompletion): ModelEvent[] {
  const choice = completion.choices?.[0];
  const events: ModelEvent[] = [];
  const message = choice?.message;
  if (message?.content) events.push({ type: 'text-delta', text: message.content });
  if (message?.refusal) events.push({ type: 'text-delta', text: message.refusal });
  const calls = new ToolCallAssembler();
  (message?.tool_calls ?? []).forEach((call, i) => {
    if (call.type !== 'function') return;
    calls.start(String(i), call.id, call.function.name, call.function.arguments);
    const signature = thoughtSignature(call);
    if (signature !== undefined) calls.sign(String(i), signature);
  });
  const assembled = calls.finish();
  events.push(...assembled);
  events.push(
    finishEvent(
      choice?.finish_reason ?? undefined,
      OPENAI_STOP_REASONS,
      assembled.length > 0,
      usageOf(completion.usage),
    ),
  );
  return events;
}
