import type { ChatMessage } from '../../core/model.js';
import { isSettled } from '../../core/settled-message.js';
import { type SettledHead, SettledHeads } from './settled-heads.js';

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

/** A conversation's settled head as `MessageForms.list` keeps it. */
interface ListedHead<Form, Variant> extends SettledHead {
  readonly forms: readonly Form[];
  readonly variant: Variant;
  /** The ids its messages hold all fit this pattern (they travelled as they are). */
  readonly fits: RegExp;
}

/** Call ids as they are. */
const asTheyAre = (id: string): string => id;

/** True when every call id `message` holds (its calls', or the one its result answers) `fits`. */
function idsFit(message: ChatMessage, fits: RegExp): boolean {
  if (message.role === 'tool') return fits.test(message.toolCallId);
  if (message.role === 'assistant')
    for (const call of message.toolCalls ?? []) if (!fits.test(call.id)) return false;
  return true;
}

/**
 * Each history message's wire form, made once and reused by later requests, with its serialized bytes
 * once asked for: a long session's requests would otherwise convert and serialize the whole
 * conversation again each time. Entries are keyed by the message object, so they live only as long as
 * the history holding it (a session let go, a message compacted away) — except that the settled heads
 * `list` keeps hold the last 64 conversations' messages and forms — and each is checked against the
 * message's values before it is used: a message changed in place, a call id that travels differently
 * in this request (the ids a wire rewrites depend on the whole history), or another `variant` (a
 * request telling tool calls as text) makes it again.
 */
export class MessageForms<Form extends object, Variant = undefined> {
  private readonly byMessage = new WeakMap<ChatMessage, Entry<Form>>();
  private readonly byForm = new WeakMap<Form, Entry<Form>>();
  /**
   * The settled head (see `isSettled`) of the last list each conversation asked for with call ids that
   * travel as they are, its forms and their variant, kept by the conversation's first message.
   */
  private readonly heads = new SettledHeads<ListedHead<Form, Variant>>();

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

  /**
   * The forms of `messages`, in order, each as `of` makes it. Call ids travel as they are when every id
   * in the list `fits`; otherwise as `mapped()` maps them over the whole list. With ids as they are,
   * the settled head this conversation's last list had is taken as it was, and only the messages after
   * it are read: a long conversation's request costs by what it added, not by its length.
   */
  list(
    messages: readonly ChatMessage[],
    variant: Variant,
    fits: RegExp,
    mapped: () => (id: string) => string,
  ): Form[] {
    const head = this.heads.find(messages, (h) => h.variant === variant && h.fits === fits);
    const from = head?.messages.length ?? 0;
    // The head's ids fit (it is kept only then): the rest decide whether ids travel as they are.
    for (let i = from; i < messages.length; i += 1) {
      if (!idsFit(messages[i] as ChatMessage, fits)) {
        const idOf = mapped();
        return messages.map((m) => this.of(m, idOf, variant));
      }
    }
    const out = head === undefined ? [] : head.forms.slice();
    let settled = from;
    for (let i = from; i < messages.length; i += 1) {
      const message = messages[i] as ChatMessage;
      out.push(this.of(message, asTheyAre, variant));
      if (settled === i && isSettled(message)) settled = i + 1;
    }
    if (settled > from)
      this.heads.keep({
        messages: messages.slice(0, settled),
        forms: out.slice(0, settled),
        variant,
        fits,
      });
    return out;
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
