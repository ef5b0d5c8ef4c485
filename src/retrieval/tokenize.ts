import { stemmer } from 'stemmer';
import { ABBREVIATIONS } from './abbreviations.js';
import { isDigit } from './char-class.js';
import { STOP_WORDS } from './stop-words.js';

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const UPPER = /\p{Lu}/u;
const DIGIT = /\p{N}/u;

/** Character classes: 1 lowercase (or caseless) letter, 2 uppercase letter, 3 digit (0: anything else). */
function classOf(code: number, ch: string): number {
  if (code >= 97 && code <= 122) return 1;
  if (code >= 65 && code <= 90) return 2;
  if (code >= 48 && code <= 57) return 3;
  if (code < 128) return 0;
  if (!LETTER_OR_DIGIT.test(ch)) return 0;
  return UPPER.test(ch) ? 2 : DIGIT.test(ch) ? 3 : 1;
}

/** Letters and digits, with the combining marks that write vowels and accents (Tamil, Hindi, Thai …). */
const RUN = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/uy;
const MARK = /\p{M}/u;
/** A run that is one plain word: optionally capitalised, then lowercase letters only. */
const PLAIN_WORD = /^[A-Z]?[a-z]+$/;
/** Scripts written without spaces between words: Chinese, Japanese, Thai, Lao, Khmer and Burmese. */
const UNSPACED_SCRIPTS =
  '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Thai}\\p{scx=Lao}\\p{scx=Khmer}\\p{scx=Myanmar}';
const UNSPACED = new RegExp(`[${UNSPACED_SCRIPTS}]`, 'u');
/** A stretch of such characters, or of any other letters and digits. */
const UNSPACED_PARTS = new RegExp(`[${UNSPACED_SCRIPTS}]+|[^${UNSPACED_SCRIPTS}]+`, 'gu');

/**
 * Splits identifiers and prose into lowercase words: at camelCase (`getUser`, `HTTPServer` → http
 * server), snake_case, `a/b`, `a.b`, any other punctuation, and between letters and digits; text of
 * a script written without spaces (Chinese, Japanese, Thai …) into overlapping pairs of characters.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  eachWord(text, out);
  return out;
}

/** Collects words as strings (the sink `words` scans into; `into` is set per call). */
const collect = {
  into: [] as string[],
  span(text: string, start: number, end: number): void {
    this.into.push(text.slice(start, end).toLowerCase());
  },
  word(word: string): void {
    this.into.push(word);
  },
};

/** Pushes the words of `text` onto `out`. */
export function eachWord(text: string, out: string[]): void {
  const outer = collect.into;
  collect.into = out;
  try {
    scanWords(text, collect);
  } finally {
    collect.into = outer;
  }
}

/** Receives a text's words: ASCII words as spans of the text (to be read lowercase), others as strings. */
export interface WordSink {
  span(text: string, start: number, end: number): void;
  word(word: string): void;
}

/**
 * The words of `text`, as `words` finds them, handed to a sink without making a string for an ASCII
 * word: an index that has seen the word before looks it up by its characters.
 */
export function scanWords(text: string, sink: WordSink): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c < 128 && !isAsciiAlnum(c)) {
      i += 1;
      continue;
    }
    const start = i;
    let simple = c >= 97 ? c <= 122 : c >= 65 && c <= 90;
    let ascii = c < 128;
    i += 1;
    while (ascii && i < n) {
      c = text.charCodeAt(i);
      if (c >= 97 && c <= 122) i += 1;
      else if (c < 128) {
        if (!isAsciiAlnum(c)) break;
        simple = false;
        i += 1;
      } else ascii = false;
    }
    if (!ascii) {
      RUN.lastIndex = start;
      const found = RUN.exec(text)?.[0];
      if (found === undefined) {
        i = start + 1;
        continue;
      }
      i = start + found.length;
      // An accent written as a mark joins its letter ("e" and U+0301 read as "é").
      const run = MARK.test(found) ? found.normalize('NFC') : found;
      if (PLAIN_WORD.test(run)) sink.word(run.toLowerCase());
      else {
        const pieces: string[] = [];
        if (UNSPACED.test(run)) splitUnspaced(run, pieces);
        else splitRun(run, pieces);
        for (const w of pieces) sink.word(w);
      }
    } else if (simple) sink.span(text, start, i);
    else splitSpan(text, start, i, sink);
  }
}

/** `splitRun` over an ASCII span of a text: the pieces go to the sink as spans. */
function splitSpan(text: string, from: number, to: number, sink: WordSink): void {
  let start = from;
  let prev = asciiClass(text.charCodeAt(from));
  for (let i = from + 1; i < to; i += 1) {
    const cls = asciiClass(text.charCodeAt(i));
    if ((prev === 1 && cls === 2) || (prev === 3) !== (cls === 3)) {
      sink.span(text, start, i);
      start = i;
    } else if (prev === 2 && cls === 1 && i - start >= 2) {
      sink.span(text, start, i - 1);
      start = i - 1;
    }
    prev = cls;
  }
  sink.span(text, start, to);
}

/** 1 lowercase letter, 2 uppercase letter, 3 digit (for ASCII letters and digits only). */
function asciiClass(c: number): number {
  return c >= 97 ? 1 : c >= 65 ? 2 : 3;
}

function isAsciiAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** Splits one run of letters and digits at case and digit boundaries, pushing lowercase words. */
function splitRun(run: string, out: string[]): void {
  const lower = run.toLowerCase();
  // Slices come from the lowercased copy when lowercasing kept every position (it nearly always does).
  const cut =
    lower.length === run.length
      ? (a: number, b: number) => lower.slice(a, b)
      : // 'İ' lowercases to 'i' and a combining dot: without the dot "İstanbul" matches "istanbul".
        (a: number, b: number) => run.slice(a, b).toLowerCase().replaceAll('\u0307', '');
  let start = 0;
  let prev = classOf(run.charCodeAt(0), run[0] as string);
  for (let i = 1; i < run.length; i += 1) {
    const cls = classOf(run.charCodeAt(i), run[i] as string);
    if ((prev === 1 && cls === 2) || (prev === 3) !== (cls === 3)) {
      out.push(cut(start, i));
      start = i;
    } else if (prev === 2 && cls === 1 && i - start >= 2) {
      // "HTTPServer": the capital before a lowercase letter starts the next word.
      out.push(cut(start, i - 1));
      start = i - 1;
    }
    prev = cls;
  }
  out.push(cut(start, run.length));
}

/**
 * Splits a run holding text of a script written without spaces: each stretch of it into its
 * overlapping pairs (a lone character stays whole), as no space marks where a word ends; the letters
 * and digits between them as any other run.
 */
function splitUnspaced(run: string, out: string[]): void {
  for (const part of run.match(UNSPACED_PARTS) ?? []) {
    if (!UNSPACED.test(part)) {
      splitRun(part, out);
      continue;
    }
    const chars = Array.from(part);
    if (chars.length === 1) out.push(part);
    for (let k = 1; k < chars.length; k += 1) out.push(`${chars[k - 1]}${chars[k]}`);
  }
}

const stemCache = new Map<string, string>();

/** The Porter stem of one lowercase word (memoised: the same words recur in every query). */
export function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    // Porter's rules strip letters only: a number (an id, an amount, a year) is its own stem.
    s = word.length <= 2 || allDigits(word) ? word : stemmer(word);
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** True when every character of a non-empty word is an ASCII digit. */
function allDigits(word: string): boolean {
  for (let i = 0; i < word.length; i += 1) if (!isDigit(word.charCodeAt(i))) return false;
  return word.length > 0;
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
    t = isStopWord(word) ? '' : stem(ABBREVIATIONS.get(word) ?? word);
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
