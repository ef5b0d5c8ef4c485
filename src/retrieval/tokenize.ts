import { stemmer } from 'stemmer';
import { STOP_WORDS } from './stop-words.js';

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const UPPER = /\p{Lu}/u;
const DIGIT = /\p{N}/u;

/** Character classes: 0 separator, 1 lowercase (or caseless) letter, 2 uppercase letter, 3 digit. */
function classOf(code: number, ch: string): number {
  if (code >= 97 && code <= 122) return 1;
  if (code >= 65 && code <= 90) return 2;
  if (code >= 48 && code <= 57) return 3;
  if (code < 128) return 0;
  if (!LETTER_OR_DIGIT.test(ch)) return 0;
  return UPPER.test(ch) ? 2 : DIGIT.test(ch) ? 3 : 1;
}

/**
 * Splits identifiers and prose into lowercase words: at camelCase (`getUser`, `HTTPServer` → http
 * server), snake_case, `a/b`, `a.b`, any other punctuation, and between letters and digits.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  // Slices come from the lowercased copy when lowercasing kept every position (it nearly always does).
  const cut =
    lower.length === text.length
      ? (a: number, b: number) => lower.slice(a, b)
      : (a: number, b: number) => text.slice(a, b).toLowerCase();
  let start = -1;
  let prev = 0;
  const n = text.length;
  for (let i = 0; i <= n; i += 1) {
    const ch = i < n ? (text[i] as string) : ' ';
    const cls = i < n ? classOf(text.charCodeAt(i), ch) : 0;
    let boundary = cls === 0;
    if (!boundary && start >= 0) {
      if (prev === 1 && cls === 2) boundary = true;
      else if ((prev === 3) !== (cls === 3)) boundary = true;
      else if (prev === 2 && cls === 1 && i - start >= 2) {
        // "HTTPServer": the capital before a lowercase letter starts the next word.
        out.push(cut(start, i - 1));
        start = i - 1;
      }
    }
    if (boundary && start >= 0) {
      out.push(cut(start, i));
      start = -1;
    }
    if (cls !== 0 && start < 0) start = i;
    prev = cls;
  }
  return out;
}

const stemCache = new Map<string, string>();

/** The Porter stem of one lowercase word (memoised: the same words recur in every query). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = word.length <= 2 ? word : stemmer(word);
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** True for words that carry no meaning for ranking (function words, request filler, lone letters). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || (word.length === 1 && !/\d/.test(word));
}

const termCache = new Map<string, string>();

/** The ranking term of one lowercase word: its stem, or "" for a stop word (memoised). */
export function termOf(word: string): string {
  let t = termCache.get(word);
  if (t === undefined) {
    t = isStopWord(word) ? '' : stem(word);
    if (termCache.size > 200_000) termCache.clear();
    termCache.set(word, t);
  }
  return t;
}

/** Words → ranking terms: stop words dropped, the rest stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    const t = termOf(w);
    if (t !== '') out.push(t);
  }
  return out;
}
