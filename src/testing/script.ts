import { readFile } from 'node:fs/promises';
import { InputError } from '../core/errors.js';
import { isPlainObject } from '../core/json.js';
import type { StopReason, Usage } from '../core/model.js';
import { parseUserJson } from '../core/read-json-file.js';
import type { ScriptRequest } from './recorded-request.js';

/** A tool call the scripted model makes. */
export interface ScriptToolCall {
  /** The (wire) name of the tool to call. */
  readonly name: string;
  /** Arguments as an object, or exact JSON text (which may be deliberately broken). */
  readonly arguments?: Record<string, unknown> | string;
  /** Call id; generated in the family's style when left out. */
  readonly id?: string;
}

/** Token counts a scripted turn reports; the cache counts are part of `inputTokens`. */
export interface ScriptUsage extends Usage {
  /** Prompt tokens read from the provider's prompt cache. */
  readonly cacheReadTokens?: number;
  /** Prompt tokens written to the cache (Anthropic and Bedrock report these; OpenAI does not). */
  readonly cacheWriteTokens?: number;
}

/** Which requests a turn may answer (every condition given must hold). */
export interface TurnMatch {
  /** The last user message contains this text. */
  readonly lastUserIncludes?: string;
  /** The system text contains this text. */
  readonly systemIncludes?: string;
  /** A tool of this wire name is offered. */
  readonly toolOffered?: string;
}

/** What every kind of turn may also say. */
export interface TurnOptions {
  /** Answer only a request this accepts; unmatched requests take later turns (programmatic). */
  readonly when?: (request: ScriptRequest) => boolean;
  /** The same in JSON form. */
  readonly match?: TurnMatch;
  /** Wait this long before answering (a slow model, a timeout). */
  readonly delayMs?: number;
  /** The stop reason to report (default: `tool_use` with tool calls, else `end_turn`). */
  readonly stopReason?: StopReason;
  /** The family's raw stop value, sent as is (wins over `stopReason`). */
  readonly rawStopReason?: string;
  /** Token counts to report (default: estimated from the sizes). */
  readonly usage?: ScriptUsage;
  /** Characters per streamed text or argument fragment (default 8). */
  readonly chunkSize?: number;
  /**
   * Streamed replies: stop before the stream's closing event, either ending the answer cleanly (`end`,
   * as a proxy cutting it would), closing the connection mid-answer (`reset`), or keeping it open with
   * nothing more to send until the client goes away (`hold`, a model that stalls mid-answer).
   */
  readonly cutOff?: 'end' | 'reset' | 'hold';
}

/** An error the provider answers with, written in the family's own body shape. */
export interface ScriptError {
  readonly status: number;
  readonly message?: string;
  /** Seconds to wait: a `retry-after` header (Gemini mode: a `RetryInfo` detail in the body, as Gemini sends it). */
  readonly retryAfter?: number;
  /** Answer the family's own "request too long for the context window" refusal (use status 400). */
  readonly overflow?: boolean;
}

/** An answer given byte for byte: status, headers and body. */
export interface RawAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One answer of the scripted model. Exactly one of the kinds is given. */
export type ScriptTurn = TurnOptions &
  (
    | { readonly text: string; readonly toolCalls?: readonly ScriptToolCall[] }
    | { readonly toolCalls: readonly ScriptToolCall[]; readonly text?: string }
    /** Reply with the last tool result's content (or the last user message when there is none). */
    | { readonly echo: 'lastToolResult' | 'lastUserMessage' }
    | { readonly error: ScriptError }
    | { readonly raw: RawAnswer }
    /**
     * Start answering (with `text`, if any), then fail inside the stream. Bedrock sends the failure as an
     * exception frame (`code` its `:exception-type`), or with `frame: "error"` as an error frame
     * (`code` its `:error-code`).
     */
    | {
        readonly streamError: { readonly code?: string; readonly message?: string; readonly frame?: 'error' };
        readonly text?: string;
      }
    /** Close the connection without answering. */
    | { readonly drop: true }
    /** Decide the answer from the request (programmatic only). */
    | { readonly respond: (request: ScriptRequest) => ScriptTurn }
  );

const KINDS = ['echo', 'error', 'raw', 'streamError', 'drop', 'respond'] as const;

function fail(where: string, what: string): never {
  throw new InputError(`${where}: ${what}`);
}

function checkToolCalls(value: unknown, where: string): void {
  if (!Array.isArray(value)) fail(where, '"toolCalls" must be a list of {"name", "arguments"}.');
  value.forEach((call, i) => {
    if (!isPlainObject(call) || typeof call['name'] !== 'string' || call['name'] === '') {
      fail(`${where} toolCalls[${i}]`, 'each tool call needs a "name" (the tool\'s wire name).');
    }
    const args = call['arguments'];
    if (args !== undefined && typeof args !== 'string' && !isPlainObject(args)) {
      fail(`${where} toolCalls[${i}]`, '"arguments" must be an object or JSON text.');
    }
  });
}

/** Checks one turn's shape, naming what is wrong; returns it typed. */
export function checkTurn(value: unknown, where: string): ScriptTurn {
  if (!isPlainObject(value)) fail(where, 'a turn must be an object such as {"text": "Hello"}.');
  const kinds = KINDS.filter((k) => k in value);
  const answers = 'text' in value || 'toolCalls' in value;
  if (kinds.length > 1 || (kinds.length === 1 && answers && kinds[0] !== 'streamError')) {
    fail(
      where,
      `give one kind of answer per turn; found ${[...kinds, ...(answers ? ['text/toolCalls'] : [])].join(', ')}.`,
    );
  }
  if (kinds.length === 0 && !answers) {
    fail(where, `say what the model answers: "text", "toolCalls", ${KINDS.map((k) => `"${k}"`).join(', ')}.`);
  }
  if ('text' in value && typeof value['text'] !== 'string') fail(where, '"text" must be a string.');
  if ('toolCalls' in value) checkToolCalls(value['toolCalls'], where);
  const error = value['error'];
  if ('error' in value && (!isPlainObject(error) || typeof error['status'] !== 'number')) {
    fail(where, '"error" needs a numeric "status", e.g. {"error": {"status": 429}}.');
  }
  const raw = value['raw'];
  if (
    'raw' in value &&
    (!isPlainObject(raw) || typeof raw['status'] !== 'number' || typeof raw['body'] !== 'string')
  ) {
    fail(where, '"raw" needs a numeric "status" and a string "body".');
  }
  if ('echo' in value && value['echo'] !== 'lastToolResult' && value['echo'] !== 'lastUserMessage') {
    fail(where, '"echo" must be "lastToolResult" or "lastUserMessage".');
  }
  if ('drop' in value && value['drop'] !== true) fail(where, '"drop" must be true.');
  if ('cutOff' in value && !['end', 'reset', 'hold'].includes(value['cutOff'] as string))
    fail(where, '"cutOff" must be "end", "reset" or "hold".');
  if ('respond' in value && typeof value['respond'] !== 'function')
    fail(where, '"respond" must be a function.');
  if ('delayMs' in value && (typeof value['delayMs'] !== 'number' || value['delayMs'] < 0)) {
    fail(where, '"delayMs" must be a number of milliseconds.');
  }
  return value as unknown as ScriptTurn;
}

/** Reads a script: a JSON list of turns, or `{"turns": [...]}`. Bad files get an `InputError`. */
export async function loadScript(path: string): Promise<ScriptTurn[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InputError(`Cannot read the script ${path}: ${(error as Error).message}`, path);
  }
  const parsed = parseUserJson(text);
  if (!parsed.ok) throw new InputError(`The script ${path} is not valid JSON: ${parsed.problem}`, path);
  const turns = isPlainObject(parsed.data) ? parsed.data['turns'] : parsed.data;
  if (!Array.isArray(turns)) {
    throw new InputError(`The script ${path} must be a list of turns or {"turns": [...]}.`, path);
  }
  return turns.map((turn, i) => checkTurn(turn, `${path} turn ${i + 1}`));
}
