import type { ChatMessage } from '../../core/model.js';
import { RecentMap } from '../../core/recent-map.js';

/** How many conversations' heads are kept: a runtime keeps as many sessions' conversations. */
const KEPT_HEADS = 64;

/** A conversation's settled head: the leading messages of a history that were all settled, and what a request made of them. */
export interface SettledHead {
  readonly messages: readonly ChatMessage[];
}

/**
 * The settled head of the last history each conversation sent, kept by its first message for the
 * conversations sent to most recently: a long conversation's next request maps only the messages
 * after it, not every message again.
 */
export class SettledHeads<Head extends SettledHead> {
  private readonly heads = new RecentMap<ChatMessage, Head>(KEPT_HEADS);

  /**
   * The head kept for the conversation `history` begins, when `history` still begins with its messages
   * (the same objects, in the same order) and `alike` says it was made as this request would make it.
   */
  find(history: readonly ChatMessage[], alike: (head: Head) => boolean): Head | undefined {
    const first = history[0];
    const head = first === undefined ? undefined : this.heads.get(first);
    if (head === undefined || !alike(head) || history.length < head.messages.length) return undefined;
    for (let i = 0; i < head.messages.length; i += 1) if (history[i] !== head.messages[i]) return undefined;
    return head;
  }

  /** Keeps `head` for the conversation its first message begins (none for an empty head). */
  keep(head: Head): void {
    const first = head.messages[0];
    if (first !== undefined) this.heads.set(first, head);
  }
}
