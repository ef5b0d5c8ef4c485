/** True for the first half of a UTF-16 surrogate pair. */
function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * `end` moved back by one when cutting `text` there would split a surrogate pair (an emoji, say): a
 * lone half is not valid text for a model's API, and SQLite stores it as replacement characters.
 */
export function wholeEnd(text: string, end: number): number {
  return end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

/** `start` moved on by one when a cut there would begin with the second half of a surrogate pair. */
export function wholeStart(text: string, start: number): number {
  return start > 0 && start < text.length && isHighSurrogate(text.charCodeAt(start - 1)) ? start + 1 : start;
}

/** The first `limit` UTF-16 units of `text`, or one fewer rather than half a character. */
export function headOf(text: string, limit: number): string {
  return text.slice(0, wholeEnd(text, limit));
}

/** `isWellFormed` / `toWellFormed` (ES2024, in Node 20): the project's lib stops at ES2023. */
interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** True when `text` holds no half of a surrogate pair. */
export function isWholeText(text: string): boolean {
  return (text as unknown as WellFormed).isWellFormed();
}

/**
 * `text` with each half of a surrogate pair (as cutting inside an emoji leaves) replaced by U+FFFD; the
 * text itself when it has none. Anthropic refuses a whole request whose JSON holds one ("no low
 * surrogate in string"), naming nothing in it.
 */
export function wholeText(text: string): string {
  const t = text as unknown as WellFormed;
  return t.isWellFormed() ? text : t.toWellFormed();
}
