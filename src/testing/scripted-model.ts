import { InputError, ProviderError } from '../core/errors.js';
import type { ModelAdapter, ModelEvent, ModelRequest, WireTool } from '../core/model.js';
import type { Answer } from './answer.js';
import { answerEvents } from './answer-events.js';
import { conversationTail, type ScriptRequest } from './recorded-request.js';
import { checkTurn, type ScriptTurn, type TurnMatch } from './script.js';

/** True for a turn that fails whatever the request says (the provider erring, not judging the request). */
export function isFailureTurn(turn: ScriptTurn): boolean {
  return 'error' in turn || 'raw' in turn || 'drop' in turn;
}

function matches(match: TurnMatch | undefined, request: ScriptRequest): boolean {
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

/** The request as text, to estimate its tokens by: the body as sent, or (in-process) its parts as JSON. */
function promptText(request: ScriptRequest): string {
  if ('rawBody' in request && typeof request.rawBody === 'string') return request.rawBody;
  return JSON.stringify({ system: request.system, messages: request.messages, tools: request.tools });
}

/** How a scripted model used in-process presents itself (a stand-in needs none of it). */
export interface ScriptedModelOptions {
  /** The provider name it reports (default `scripted`). */
  readonly provider?: string;
  /** The model id it reports (default `scripted-model`). */
  readonly model?: string;
  /** Most tools one request may carry (left out: the runtime keeps to the smallest known limit). */
  readonly maxTools?: number;
  /** With no turn left: refuse the request (default) or echo the last user message. */
  readonly whenScriptEmpty?: 'error' | 'echo';
}

/**
 * The scripted model: a queue of turns, each answering the first request it accepts (turns without a
 * condition accept any), resolved against that request. A stand-in plays its answers over HTTP to a
 * real SDK; used as a `ModelAdapter` it plays them in-process, for a runtime with no HTTP and no SDK.
 * In-process, failures are thrown as the `ProviderError` an adapter throws once its retries are spent
 * (none are made), `stopReason` decides the finish (`rawStopReason` is only reported), and a
 * successful `raw` answer, being HTTP bytes, is refused.
 */
export class ScriptedModel implements ModelAdapter {
  readonly provider: string;
  readonly model: string;
  readonly maxTools?: number;
  /** Every request `stream` was given, in order, as its turns saw it. */
  readonly requests: ScriptRequest[] = [];
  private readonly turns: ScriptTurn[] = [];
  private readonly whenScriptEmpty: 'error' | 'echo';
  private readonly rejected = new Set<string>();
  /** The tools each rejection this model threw blames. */
  private readonly blamed = new WeakMap<object, readonly string[]>();
  private answered = 0;
  private calls = 0;

  constructor(turns: readonly ScriptTurn[] = [], options: ScriptedModelOptions = {}) {
    if (!Array.isArray(turns)) {
      throw new InputError(
        'The script must be a list of turns, such as [{"text": "Hello"}] (a script file keeps it under "turns").',
      );
    }
    this.provider = options.provider ?? 'scripted';
    this.model = options.model ?? 'scripted-model';
    if (options.maxTools !== undefined) this.maxTools = options.maxTools;
    this.whenScriptEmpty = options.whenScriptEmpty ?? 'error';
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
  peek(request: ScriptRequest): ScriptTurn | undefined {
    return this.turns.find((t) => (t.when ? t.when(request) : true) && matches(t.match, request));
  }

  /** Takes `turn` (from `peek`) out of the queue and resolves it against `request`. */
  take(
    turn: ScriptTurn,
    request: ScriptRequest,
    callId: (n: number) => string,
  ): { answer: Answer; turn: number } {
    this.turns.splice(this.turns.indexOf(turn), 1);
    this.answered += 1;
    return { answer: this.resolve(turn, request, callId), turn: this.answered };
  }

  /** Takes the first turn that accepts `request` and resolves it; undefined when none does. */
  next(request: ScriptRequest, callId: (n: number) => string): { answer: Answer; turn: number } | undefined {
    const turn = this.peek(request);
    return turn ? this.take(turn, request, callId) : undefined;
  }

  /** Refuses every request that offers this tool, as a provider refuses a bad definition (in-process). */
  rejectTool(name: string): this {
    this.rejected.add(name);
    return this;
  }

  /** Answers `request` in-process with the first turn that accepts it. */
  stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    return this.play(request);
  }

  /** The tools a rejection this model threw blames, among those `sent` ([] for any other error). */
  toolsNamedInRejection(error: unknown, sent: readonly WireTool[]): string[] {
    const blamed = typeof error === 'object' && error !== null ? this.blamed.get(error) : undefined;
    return sent.filter((tool) => blamed?.includes(tool.name)).map((tool) => tool.name);
  }

  /** The same: the scripted model always names the tool it refuses. */
  toolsAttributedInRejection(error: unknown, sent: readonly WireTool[]): string[] {
    return this.toolsNamedInRejection(error, sent);
  }

  private async *play(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const record: ScriptRequest = {
      model: this.model,
      stream: true,
      system: request.system,
      messages: request.messages,
      tools: request.tools,
      ...conversationTail(request.messages),
    };
    this.requests.push(record);
    const callId = (n: number) => `call_${n}`;
    const turn = this.peek(record);
    // as at a stand-in: a scripted failure is the provider failing, whatever the request offers
    if (!turn || !isFailureTurn(turn)) this.refuseRejectedTools(record);
    const answer: Answer | undefined = turn
      ? this.take(turn, record, callId).answer
      : this.whenScriptEmpty === 'echo'
        ? this.resolve({ echo: 'lastUserMessage' }, record, callId)
        : undefined;
    if (!answer) {
      throw new ProviderError({
        provider: this.provider,
        status: 400,
        message: `${this.provider} answered HTTP 400: the script has no turn left for this request (${this.requests.length} requests so far); push more turns.`,
        retryable: false,
      });
    }
    yield* answerEvents(answer, this.provider, request.signal);
  }

  private refuseRejectedTools(request: ScriptRequest): void {
    const index = request.tools.findIndex((tool) => this.rejected.has(tool.name));
    const tool = request.tools[index];
    if (!tool) return;
    const error = new ProviderError({
      provider: this.provider,
      status: 400,
      message: `${this.provider} answered HTTP 400: tools[${index}] (${tool.name}): the scripted model refuses this tool's definition.`,
      providerCode: 'invalid_tool_definition',
      retryable: false,
    });
    this.blamed.set(error, [tool.name]);
    throw error;
  }

  private resolve(turn: ScriptTurn, request: ScriptRequest, callId: (n: number) => string): Answer {
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
      usage: turn.usage ?? { inputTokens: estimate(promptText(request)), outputTokens: estimate(produced) },
      chunkSize: Math.max(1, turn.chunkSize ?? 8),
      cutOff: turn.cutOff,
      delayMs,
    };
  }
}
