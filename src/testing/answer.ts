import type { StopReason } from '../core/model.js';
import type { RawAnswer, ScriptError, ScriptUsage } from './script.js';

/** A tool call as the scripted model makes it. */
export interface AnswerToolCall {
  readonly id: string;
  readonly name: string;
  /** JSON text. */
  readonly arguments: string;
}

/** A turn resolved against the request it answers. */
export type Answer = { readonly delayMs: number } & (
  | {
      readonly kind: 'reply';
      readonly text: string;
      readonly toolCalls: readonly AnswerToolCall[];
      readonly stopReason: StopReason;
      readonly rawStopReason: string | undefined;
      readonly usage: ScriptUsage;
      readonly chunkSize: number;
      /** How the stream stops before its closing event, if it does. */
      readonly cutOff: 'end' | 'reset' | 'hold' | undefined;
    }
  | { readonly kind: 'error'; readonly error: ScriptError }
  | { readonly kind: 'raw'; readonly raw: RawAnswer }
  | {
      readonly kind: 'stream-error';
      readonly text: string;
      readonly code: string | undefined;
      readonly message: string | undefined;
      /** Bedrock: an error frame (`:message-type` error) rather than an exception frame. */
      readonly frame: 'error' | undefined;
    }
  | { readonly kind: 'drop' }
);

/** `text` cut into pieces of `size` characters (none for empty text). */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
