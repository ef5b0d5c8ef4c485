import { isSpace } from './char-class.js';

/** `.!?:"'(`: a capital after these (and white space) starts a sentence or a quote. */
const SENTENCE_OPENERS = new Set([46, 33, 63, 58, 34, 39, 40]);

/**
 * Capitalised words inside a sentence ("Paris", "Beethoven"): names more likely than not. A word
 * counts when white space precedes it and the character before that space neither ends a sentence
 * nor opens a quote (a sentence's first word is capitalised anyway). One pass over the text.
 */
export function capitalisedWords(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  // The last character that is not white space (-1 before the first), and whether space followed it.
  let before = -1;
  let spaced = false;
  for (let i = 0; i < n; i += 1) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      spaced = true;
      continue;
    }
    if (spaced && before >= 0 && !SENTENCE_OPENERS.has(before) && c >= 65 && c <= 90) {
      let end = i + 1;
      while (end < n && isLower(text.charCodeAt(end))) end += 1;
      if (end > i + 1) out.push(text.slice(i, end));
      i = end - 1;
    }
    before = text.charCodeAt(i);
    spaced = false;
  }
  return out;
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}
