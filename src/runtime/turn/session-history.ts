import type { ChatMessage } from '../../core/model.js';
import type { SessionStore, StoredMessage } from '../../core/session-store.js';
import { settleMessage } from '../../core/settled-message.js';
import { knownListChars, messageChars } from '../context/token-estimate.js';
import type { ToolSurface } from '../surface/tool-surface.js';
import { resultsInCallOrder } from './results-in-call-order.js';
import { wireHistory } from './wire-history.js';

/**
 * A session's conversation as this process last read it, brought up to date before each use with one
 * small read: the messages after the last one kept. Messages are only ever appended, in `seq` order, so
 * that read also brings in what another process (an approval answered elsewhere, a turn resumed there)
 * added meanwhile; the first use reads the whole conversation.
 */
export class SessionHistory {
  private readonly kept: StoredMessage[] = [];
  private lastSeq: number | undefined;
  /**
   * The kept messages as a request carries them, for the surface they were made ready for: `messages`
   * as stored, their characters, and the first `placed` of them in call order (`inOrder`), which no later
   * message can reorder.
   */
  private wire:
    | {
        readonly surface: ToolSurface;
        readonly messages: ChatMessage[];
        chars: number;
        readonly inOrder: ChatMessage[];
        placed: number;
      }
    | undefined;

  constructor(readonly sessionId: string) {}

  /** The whole conversation, oldest first, as the store holds it now (a copy: later reads do not change it). */
  async messages(store: SessionStore): Promise<StoredMessage[]> {
    await this.catchUp(store);
    return this.kept.slice();
  }

  /**
   * The whole conversation as a request to the model carries it (see `wireHistory`), its tool results
   * in call order. Each message is made ready once for a surface, not again on every request.
   */
  async forRequest(store: SessionStore, surface: ToolSurface): Promise<ChatMessage[]> {
    await this.catchUp(store);
    if (this.wire?.surface !== surface)
      this.wire = { surface, messages: [], chars: 0, inOrder: [], placed: 0 };
    const wire = this.wire;
    const ready = wire.messages;
    if (ready.length < this.kept.length) {
      const added = wireHistory(
        this.kept.slice(ready.length).map((m) => m.message),
        surface,
      );
      for (const message of added) {
        settleMessage(message);
        wire.chars += messageChars(message);
      }
      ready.push(...added);
    }
    // Made ready message by message, then put in order: ordering looks only at roles and call ids.
    // Only a reply whose results may still be coming (the last, with nothing but results after it) can
    // still move; what comes before it is put in order once.
    const open = openReplyAt(ready, wire.placed);
    if (open > wire.placed) {
      wire.inOrder.push(...resultsInCallOrder(ready.slice(wire.placed, open)));
      wire.placed = open;
    }
    const ordered = wire.inOrder.concat(resultsInCallOrder(ready.slice(wire.placed)));
    // The same messages in another order: a request's size estimate need not count them again.
    knownListChars(ordered, wire.chars);
    return ordered;
  }

  /**
   * Takes in a message this process has just stored in the session (a reply, a tool result), so the
   * next read need not bring it back. Taken only when it comes right after the last message kept: a
   * message's `seq` is above every one stored before it, so nothing can sit between the two unseen. Any
   * other (a message of another session written in between, a write that came back out of order) is
   * left to the next read, which brings it in its place.
   */
  wrote(message: StoredMessage): void {
    if (this.lastSeq === undefined || message.sessionId !== this.sessionId) return;
    if (message.seq !== this.lastSeq + 1) return;
    this.kept.push(message);
    this.lastSeq = message.seq;
  }

  /**
   * True when the conversation as last read is one user message of `turnId` and nothing else: the
   * session's first turn, before any reply of it was stored. Every turn begins with its user message,
   * so no earlier turn, model reply, token count or summary of the session can be in the store.
   */
  onlyOpening(turnId: string): boolean {
    const first = this.kept[0];
    return this.kept.length === 1 && first?.turnId === turnId && first.message.role === 'user';
  }

  private async catchUp(store: SessionStore): Promise<void> {
    const page = this.lastSeq === undefined ? {} : { afterSeq: this.lastSeq };
    const added = await store.listMessages(this.sessionId, page);
    // Two reads may overlap (they asked after the same message): each message is kept once, in order.
    for (const message of added) {
      if (this.lastSeq !== undefined && message.seq <= this.lastSeq) continue;
      this.kept.push(message);
      this.lastSeq = message.seq;
    }
  }
}

/**
 * Where the last reply whose results may still be coming begins (at or after `from`): a reply with calls
 * followed by nothing but tool results. `messages.length` when there is none.
 */
function openReplyAt(messages: readonly ChatMessage[], from: number): number {
  let at = messages.length;
  while (at > from && messages[at - 1]?.role === 'tool') at -= 1;
  const reply = messages[at - 1];
  return at > from && reply?.role === 'assistant' && (reply.toolCalls?.length ?? 0) > 0
    ? at - 1
    : messages.length;
}
