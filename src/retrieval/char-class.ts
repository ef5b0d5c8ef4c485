/** True for a UTF-16 code unit that a regular expression's `\s` matches (white space or a line end). */
export function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** True for a code unit that `\w` matches: an ASCII letter or digit, or `_` (false past the text's end). */
export function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** True for an ASCII digit. */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * True when `text` holds `word` (lowercase ASCII) at `at`, ASCII capitals read as lowercase: what a
 * regular expression's `i` flag does for such a word.
 */
export function holdsFolded(text: string, word: string, at: number): boolean {
  if (at + word.length > text.length) return false;
  for (let k = 0; k < word.length; k += 1) {
    const c = text.charCodeAt(at + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(k)) return false;
  }
  return true;
}
