import { holdsFolded, isDigit, isWordChar } from './char-class.js';

/**
 * Kinds of value a request carries, read from their shape: "May 20th" or "2024-03-01" is a date,
 * "9:30 AM" a time, "$120" an amount. Tools name the parameters that take such values ("date",
 * "start_time", "amount"), so the kind's words can match those parameters when the request never
 * says the word itself.
 */
interface ValueType {
  readonly pattern?: RegExp;
  /** A scan for a shape a pattern finds only by backtracking over long runs. */
  readonly scan?: (text: string) => boolean;
  readonly words: readonly string[];
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

const VALUE_TYPES: readonly ValueType[] = [
  {
    pattern: new RegExp(
      `\\b\\d{4}-\\d{1,2}-\\d{1,2}\\b|\\b\\d{1,2}[/.]\\d{1,2}[/.]\\d{2,4}\\b|\\b${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?\\b|\\b\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}\\b`,
      'i',
    ),
    words: ['date'],
  },
  { pattern: /\b\d{1,2}:\d{2}(?::\d{2})?\b|\b\d{1,2} ?[ap]\.?m\b/i, words: ['time'] },
  { scan: hasEmailAddress, words: ['email'] },
  { pattern: /\bhttps?:\/\/\S+|\bwww\.\S+/i, words: ['url'] },
  { pattern: /[$€£¥]\s?\d/, scan: hasCurrencyWordAmount, words: ['amount'] },
  { pattern: /\b\d+(?:\.\d+)? ?(?:%|percent\b)/i, words: ['percentage'] },
];

/** Words naming the kinds of value a request holds ("date", "time", …), each once. */
export function valueTypeWords(query: string): string[] {
  const out: string[] = [];
  for (const t of VALUE_TYPES)
    if (t.pattern?.test(query) || t.scan?.(query)) for (const w of t.words) out.push(w);
  return out;
}

/**
 * True when the text holds an e-mail address: before an `@`, a run of `[\w.+-]` holding a `\w`
 * character; after it, a `[\w-]` run, a dot, and a `[\w.-]` run holding a `\w` character. Read
 * outward from each `@`: no run crosses another `@`, so each character is read a few times at most.
 */
export function hasEmailAddress(text: string): boolean {
  const n = text.length;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let i = at - 1;
    while (i >= 0 && isLocalChar(text.charCodeAt(i)) && !isWordChar(text.charCodeAt(i))) i -= 1;
    if (i < 0 || !isWordChar(text.charCodeAt(i))) continue;
    let dot = at + 1;
    while (dot < n && isLabelChar(text.charCodeAt(dot))) dot += 1;
    if (dot === at + 1 || text.charCodeAt(dot) !== 46) continue;
    let j = dot + 1;
    while (j < n && isHostChar(text.charCodeAt(j)) && !isWordChar(text.charCodeAt(j))) j += 1;
    if (isWordChar(text.charCodeAt(j))) return true;
  }
  return false;
}

/** `[\w.+-]`: what the part of an address before the `@` is made of. */
function isLocalChar(c: number): boolean {
  return isWordChar(c) || c === 46 || c === 43 || c === 45;
}

/** `[\w-]`: what a domain label is made of. */
function isLabelChar(c: number): boolean {
  return isWordChar(c) || c === 45;
}

/** `[\w.-]`: what the rest of a domain is made of. */
function isHostChar(c: number): boolean {
  return isWordChar(c) || c === 46 || c === 45;
}

/** Currency words that follow a number (any case). */
const CURRENCY_WORDS = ['dollars', 'dollar', 'usd', 'eur', 'euros', 'euro', 'gbp', 'pounds sterling'];

/**
 * True when a number is followed by a currency word ("20 euros", "1,200.50USD"): a run of digits,
 * commas and dots where a digit starts a word, an optional space, then the word ending a word. Each
 * run is read once.
 */
export function hasCurrencyWordAmount(text: string): boolean {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isNumberChar(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    let startsWord = false;
    for (; i < n && isNumberChar(text.charCodeAt(i)); i += 1)
      if (isDigit(text.charCodeAt(i)) && !isWordChar(text.charCodeAt(i - 1))) startsWord = true;
    if (!startsWord) continue;
    const at = text.charCodeAt(i) === 32 ? i + 1 : i;
    for (const word of CURRENCY_WORDS)
      if (holdsFolded(text, word, at) && !isWordChar(text.charCodeAt(at + word.length))) return true;
  }
  return false;
}

/** `[\d,.]`: what a written number is made of. */
function isNumberChar(c: number): boolean {
  return isDigit(c) || c === 44 || c === 46;
}
