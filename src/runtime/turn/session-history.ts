import type { SessionStore, StoredMessage } from '../../core/session-store.js';

/**
 * A session's conversation as this process last read it, brought up to date before each use with one
 * small read: the messages after the last one kept. Messages are only ever appended, in `seq` order, so
 * that read also brings in what another process (an approval answered elsewhere, a turn resumed there)
 * added meanwhile; the first use reads the whole conversation.
 */
export class SessionHistory {
  private readonly kept: StoredMessage[] = [];
  private lastSeq: number | undefined;

  constructor(readonly sessionId: string) {}

  /** The whole conversation, oldest first, as the store holds it now (a copy: later reads do not change it). */
  async messages(store: SessionStore): Promise<StoredMessage[]> {
    const page = this.lastSeq === undefined ? {} : { afterSeq: this.lastSeq };
    const added = await store.listMessages(this.sessionId, page);
    // Two reads may overlap (they asked after the same message): each message is kept once, in order.
    for (const message of added) {
      if (this.lastSeq !== undefined && message.seq <= this.lastSeq) continue;
      this.kept.push(message);
      this.lastSeq = message.seq;
    }
    return this.kept.slice();
  }
}
