import type { ChatMessage, WireTool } from '../../core/model.js';
import { schemaJsonLength } from '../../core/schema-json.js';

/** Characters a message costs beyond its text (role, ids, framing), as a rough constant. */
const MESSAGE_OVERHEAD = 16;

/** The characters of one message as a request carries it. */
export function messageChars(message: ChatMessage): number {
  let chars = message.content.length + MESSAGE_OVERHEAD;
  if (message.role === 'assistant')
    for (const call of message.toolCalls ?? [])
      chars += call.name.length + call.arguments.length + MESSAGE_OVERHEAD;
  if (message.role === 'tool') chars += message.name.length + message.toolCallId.length;
  return chars;
}

/** Message lists whose characters were summed as they were made (a kept conversation, message by message). */
const LIST_CHARS = new WeakMap<readonly ChatMessage[], number>();

/**
 * Records the characters of a message list made for one request and not changed after, so estimating
 * that request (twice: to fit it, and to calibrate from the provider's counts) does not walk it again.
 */
export function knownListChars(messages: readonly ChatMessage[], chars: number): void {
  LIST_CHARS.set(messages, chars);
}

/** The characters of a whole request: system text, messages and tool definitions. */
export function requestChars(request: {
  readonly system: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly WireTool[];
}): number {
  let chars = request.system.length;
  const known = LIST_CHARS.get(request.messages);
  if (known !== undefined) chars += known;
  else for (const message of request.messages) chars += messageChars(message);
  return chars + toolListChars(request.tools);
}

/**
 * Frozen tool lists measured before: a request is estimated twice, and a turn's next request carries
 * the same frozen list (see `requestTools`), which is measured once. Any other list (its tools may be
 * changed in place) is measured each time.
 */
const TOOL_LIST_CHARS = new WeakMap<readonly WireTool[], number>();

/** The characters of a request's tool definitions. */
function toolListChars(tools: readonly WireTool[]): number {
  const known = TOOL_LIST_CHARS.get(tools);
  if (known !== undefined) return known;
  let chars = 0;
  for (const tool of tools)
    chars += tool.name.length + tool.description.length + schemaJsonLength(tool.parameters);
  if (Object.isFrozen(tools)) TOOL_LIST_CHARS.set(tools, chars);
  return chars;
}

/** Bounds on the characters one token stands for, so one odd answer cannot throw the estimate far off. */
const FEWEST = 1.5;
const MOST = 8;
/** How much each new observation moves the estimate. */
const WEIGHT = 0.3;

/**
 * A cheap token estimate (characters ÷ characters-per-token) that the provider's own counts calibrate:
 * it starts at a careful 3.5 characters a token and moves toward the ratio each answer's usage shows.
 */
export class TokenCalibration {
  private perToken = 3.5;
  private observed = 0;

  /** Characters one token stands for, as calibrated so far. */
  get charsPerToken(): number {
    return this.perToken;
  }

  /** How many answers calibrated it. */
  get observations(): number {
    return this.observed;
  }

  /** Takes a request's size in characters and the prompt tokens the provider counted for it. */
  observe(chars: number, inputTokens: number): void {
    if (!(chars > 0) || !(inputTokens > 0)) return;
    const ratio = Math.min(MOST, Math.max(FEWEST, chars / inputTokens));
    this.perToken = this.observed === 0 ? ratio : this.perToken + WEIGHT * (ratio - this.perToken);
    this.observed += 1;
  }

  /** The estimated tokens of `chars` characters (rounded up). */
  tokens(chars: number): number {
    return Math.ceil(chars / this.perToken);
  }
}
