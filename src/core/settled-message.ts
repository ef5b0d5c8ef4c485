import type { ChatMessage } from './model.js';

/**
 * Freezes a message of a conversation's history, its calls and each call: a message the runtime has
 * made ready for requests never changes again, and frozen it cannot. A provider may then reuse the
 * message's wire form from its last request without checking it again (see `isSettled`).
 */
export function settleMessage(message: ChatMessage): void {
  if (message.role === 'assistant' && message.toolCalls !== undefined) {
    for (const call of message.toolCalls) Object.freeze(call);
    Object.freeze(message.toolCalls);
  }
  Object.freeze(message);
}

/**
 * True when nothing of `message` can change any more: it, its calls and each call are frozen (as
 * `settleMessage` leaves them). Such a message's wire form needs no check before it is used again.
 */
export function isSettled(message: ChatMessage): boolean {
  if (!Object.isFrozen(message)) return false;
  if (message.role !== 'assistant' || message.toolCalls === undefined) return true;
  return Object.isFrozen(message.toolCalls) && message.toolCalls.every((call) => Object.isFrozen(call));
}
