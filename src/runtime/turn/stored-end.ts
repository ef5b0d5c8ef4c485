import type { TurnEnd } from './turn-end.js';

/** How a turn's end is stored: its final state and, unless it is done, the error the store keeps. */
export function storedEnd(end: TurnEnd): { state: 'done' | 'stopped' | 'failed'; error: string | undefined } {
  const state =
    end.status === 'done' || end.status === 'limit'
      ? 'done'
      : end.status === 'stopped'
        ? 'stopped'
        : 'failed';
  const error = end.status === 'done' ? undefined : `${end.errorCode ?? end.status}: ${end.message}`;
  return { state, error };
}
