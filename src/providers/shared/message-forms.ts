import type { ChatMessage } from '../../core/model.js';

/** One message's wire form, what it was made from, and its bytes once asked for. */
interface Entry<Form> {
  /** Every value of the message (call ids as they travelled) and the variant the form was made from. */
  readonly made: readonly unknown[];
  readonly form: Form;
  bytes?: Buffer;
}

/** The values of `message` a wire form may depend on, call ids as `idOf` sends them, `variant` first. */
function madeFrom(message: ChatMessage, idOf: (id: string) => string, variant: unknown): unknown[] {
  switch (message.role) {
    case 'user':
      return [variant, message.role, message.content];
    case 'tool':
      return [
        variant,
        message.role,
        message.content,
        idOf(message.toolCallId),
        message.name,
        message.isError,
      ];
    case 'assistant': {
      const made: unknown[] = [variant, message.role, message.content];
      for (const call of message.toolCalls ?? [])
        made.push(idOf(call.id), call.name, call.arguments, call.signature);
      return made;
    }
  }
}

/** True when `message` still holds the values `made` lists (compared in place: this runs per message per request). */
function stillMadeFrom(
  made: readonly unknown[],
  message: ChatMessage,
  idOf: (id: string) => string,
  variant: unknown,
): boolean {
  if (made[0] !== variant || made[1] !== message.role || made[2] !== message.content) return false;
  if (message.role === 'user') return made.length === 3;
  if (message.role === 'tool')
    return made[3] === idOf(message.toolCallId) && made[4] === message.name && made[5] === message.isError;
  const calls = message.toolCalls ?? [];
  if (made.length !== 3 + 4 * calls.length) return false;
  let at = 3;
  for (const call of calls) {
    if (made[at] !== idOf(call.id) || made[at + 1] !== call.name) return false;
    if (made[at + 2] !== call.arguments || made[at + 3] !== call.signature) return false;
    at += 4;
  }
  return true;
}

/**
 * True when nothing of `message` can change any more: it, its calls and each call are frozen (the
 * runtime freezes the history it keeps). Such a message's wire form needs no check before it is used
 * again.
 */
export function isSettled(message: ChatMessage): boolean {
  if (!Object.isFrozen(message)) return false;
  if (message.role !== 'assistant' || message.toolCalls === undefined) return true;
  return Object.isFrozen(message.toolCalls) && message.toolCalls.every((call) => Object.isFrozen(call));
}

/**
 * Each history message's wire form, made once and reused by later requests, with its serialized bytes
 * once asked for: a long session's requests would otherwise convert and serialize the whole
 * conversation again each time. Entries are keyed by the message object, so they live only as long as
 * the history holding it (a session let go, a message compacted away), and each is checked against the
 * message's values before it is used: a message changed in place, a call id that travels differently
 * in this request (the ids a wire rewrites depend on the whole history), or another `variant` (a
 * request telling tool calls as text) makes it again.
 */
export class MessageForms<Form extends object, Variant = undefined> {
  private readonly byMessage = new WeakMap<ChatMessage, Entry<Form>>();
  private readonly byForm = new WeakMap<Form, Entry<Form>>();

  constructor(
    private readonly make: (message: ChatMessage, idOf: (id: string) => string, variant: Variant) => Form,
  ) {}

  /** The wire form of `message`, the kept one when it was made from the values the message holds now. */
  of(message: ChatMessage, idOf: (id: string) => string, variant: Variant): Form {
    const kept = this.byMessage.get(message);
    if (kept !== undefined && stillMadeFrom(kept.made, message, idOf, variant)) return kept.form;
    const made = madeFrom(message, idOf, variant);
    const entry: Entry<Form> = { made, form: this.make(message, idOf, variant) };
    this.byMessage.set(message, entry);
    this.byForm.set(entry.form, entry);
    return entry.form;
  }

  /** True when this cache made `form`. */
  made(form: Form): boolean {
    return this.byForm.has(form);
  }

  /** `encode(form)`, kept for a form this cache made (nobody changes those); any other is encoded each time. */
  bytes(form: Form, encode: (form: Form) => Buffer): Buffer {
    const entry = this.byForm.get(form);
    if (entry?.bytes !== undefined) return entry.bytes;
    const bytes = encode(form);
    if (entry !== undefined) entry.bytes = bytes;
    return bytes;
  }
}
