import type { ChatMessage } from '../../src/core/model.js';
import { settleMessage } from '../../src/core/settled-message.js';

/**
 * Messages frozen as the runtime's history holds them (the message, its calls and each call), each
 * behind a proxy counting reads of its values: a test can then see which messages a request read.
 */
export class CountedFrozen {
  /** Reads of any message's values since `readsOf` last began. */
  reads = 0;

  /** `message` frozen, behind a counting proxy. */
  readonly frozen = (message: ChatMessage): ChatMessage => {
    settleMessage(message);
    return new Proxy(message, {
      get: (target, key, receiver) => {
        this.reads += 1;
        return Reflect.get(target, key, receiver);
      },
    });
  };

  /** What `work` gave, and the reads of message values it made. */
  readonly readsOf = <T>(work: () => T): { readonly value: T; readonly reads: number } => {
    this.reads = 0;
    const value = work();
    return { value, reads: this.reads };
  };
}
