import { InputError } from '../core/errors.js';
import type { StopReason } from '../core/model.js';
import type { RecordedRequest } from './recorded-request.js';
import {
  checkTurn,
  type RawAnswer,
  type ScriptError,
  type ScriptTurn,
  type ScriptUsage,
  type TurnMatch,
} from './script.js';

/** True for a turn that fails whatever the request says (the provider erring, not judging the request). */
export function isFailureTurn(turn: ScriptTurn): boolean {
  return 'error' in turn || 'raw' in turn || 'drop' in turn;
}

/** A tool call as the stand-in will send it. */
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

function matches(match: TurnMatch | undefined, request: RecordedRequest): boolean {
  if (!match) return true;
  if (match.lastUserIncludes !== undefined && !request.lastUserMessage.includes(match.lastUserIncludes))
    return false;
  if (match.systemIncludes !== undefined && !request.system.includes(match.systemIncludes)) return false;
  if (match.toolOffered !== undefined && !request.tools.some((t) => t.name === match.toolOffered))
    return false;
  return true;
}

function estimate(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/**
 * The scripted model behind every stand-in: a queue of turns, each answering the first request it
 * accepts (turns without a condition accept any), resolved against that request.
 */
export class ScriptedModel {
  private readonly turns: ScriptTurn[] = [];
  private answered = 0;
  private calls = 0;

  constructor(turns: readonly ScriptTurn[] = []) {
    if (!Array.isArray(turns)) {
      throw new InputError(
        'The script must be a list of turns, such as [{"text": "Hello"}] (a script file keeps it under "turns").',
      );
    }
    this.push(...turns);
  }

  /** Queues turns (checked, so a mistake is named at once). */
  push(...turns: ScriptTurn[]): void {
    turns.forEach((turn, i) => {
      this.turns.push(checkTurn(turn, `script turn ${this.turns.length + i + 1}`));
    });
  }

  /** Turns not yet used. */
  get pending(): number {
    return this.turns.length;
  }

  /** Forgets every queued turn. */
  clear(): void {
    this.turns.length = 0;
  }

  /** The first queued turn that accepts `request`, left in the queue. */
  peek(request: RecordedRequest): ScriptTurn | undefined {
    return this.turns.find((t) => (t.when ? t.when(request) : true) && matches(t.match, request));
  }

  /** Takes `turn` (from `peek`) out of the queue and resolves it against `request`. */
  take(
    turn: ScriptTurn,
    request: RecordedRequest,
    callId: (n: number) => string,
  ): { answer: Answer; turn: number } {
    this.turns.splice(this.turns.indexOf(turn), 1);
    this.answered += 1;
    return { answer: this.resolve(turn, request, callId), turn: this.answered };
  }

  /** Takes the first turn that accepts `request` and resolves it; undefined when none does. */
  next(
    request: RecordedRequest,
    callId: (n: number) => string,
  ): { answer: Answer; turn: number } | undefined {
    const turn = this.peek(request);
    return turn ? this.take(turn, request, callId) : undefined;
  }

  private resolve(turn: ScriptTurn, request: RecordedRequest, callId: (n: number) => string): Answer {
    if ('respond' in turn)
      return this.resolve(checkTurn(turn.respond(request), 'respond()'), request, callId);
    const delayMs = turn.delayMs ?? 0;
    if ('error' in turn) return { kind: 'error', error: turn.error, delayMs };
    if ('raw' in turn) return { kind: 'raw', raw: turn.raw, delayMs };
    if ('drop' in turn) return { kind: 'drop', delayMs };
    if ('streamError' in turn) {
      return {
        kind: 'stream-error',
        text: turn.text ?? '',
        code: turn.streamError.code,
        message: turn.streamError.message,
        frame: turn.streamError.frame,
        delayMs,
      };
    }
    const text =
      'echo' in turn
        ? turn.echo === 'lastToolResult'
          ? (request.lastToolResult?.content ?? request.lastUserMessage)
          : request.lastUserMessage
        : (turn.text ?? '');
    const toolCalls = ('toolCalls' in turn ? (turn.toolCalls ?? []) : []).map((call) => {
      this.calls += 1;
      const args = call.arguments ?? {};
      return {
        id: call.id ?? callId(this.calls),
        name: call.name,
        arguments: typeof args === 'string' ? args : JSON.stringify(args),
      };
    });
    const produced = text + toolCalls.map((c) => c.name + c.arguments).join('');
    return {
      kind: 'reply',
      text,
      toolCalls,
      stopReason: turn.stopReason ?? (toolCalls.length > 0 ? 'tool_use' : 'end_turn'),
      rawStopReason: turn.rawStopReason,
      usage: turn.usage ?? { inputTokens: estimate(request.rawBody), outputTokens: estimate(produced) },
      chunkSize: Math.max(1, turn.chunkSize ?? 8),
      cutOff: turn.cutOff,
      delayMs,
    };
  }
}

/** `text` cut into pieces of `size` characters (none for empty text). */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
