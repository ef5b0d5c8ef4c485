import { isSpace } from './char-class.js';

/** Characters of a request that ranking and hints read at most (the head and the tail of a longer one). */
export const REQUEST_READ_CHARS = 16_000;

/** How far back (or on) a cut looks for white space, so it falls between words. */
const CUT_SLACK = 64;

/**
 * The part of a request that ranking and hints read: all of it up to REQUEST_READ_CHARS (more than
 * three times the longest benchmark request), else its head and its tail on two lines. A request that
 * long is mostly a pasted block, and what is asked is said before or after it; reading every word of
 * a pasted megabyte cost most of a second per turn, on the thread every session shares.
 */
export function requestText(query: string): string {
  if (query.length <= REQUEST_READ_CHARS) return query;
  const half = REQUEST_READ_CHARS / 2 - 1;
  let head = half;
  for (let i = half; i > half - CUT_SLACK; i -= 1) {
    if (isSpace(query.charCodeAt(i))) {
      head = i;
      break;
    }
  }
  let tail = query.length - half;
  for (let i = tail; i < query.length - half + CUT_SLACK; i += 1) {
    if (isSpace(query.charCodeAt(i - 1))) {
      tail = i;
      break;
    }
  }
  return `${query.slice(0, head)}\n${query.slice(tail)}`;
}
