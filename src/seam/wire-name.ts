/** A name every provider accepts for a function (Gemini also wants a letter or `_` first). */
export const WIRE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

const MAX_LENGTH = 64;
const HASH_LENGTH = 8;

/**
 * The model-safe name a tool travels under: its real name when that is already safe; otherwise
 * every other character becomes `_` (and a leading digit or `-` gets a `_` in front). A name longer
 * than 64 characters keeps its first 55 and a short hash of the REAL name, so two long names that
 * share a beginning still travel under different names.
 */
export function wireName(realName: string): string {
  const unsafeAt = firstUnsafe(realName);
  const leads = realName.length > 0 && isLeadChar(realName.charCodeAt(0));
  if (unsafeAt < 0 && leads && realName.length <= MAX_LENGTH) return realName;
  let safe = unsafeAt < 0 ? realName : replaceUnsafe(realName, unsafeAt);
  if (safe.length === 0 || !isLeadChar(safe.charCodeAt(0))) safe = `_${safe}`;
  if (safe.length <= MAX_LENGTH) return safe;
  return `${safe.slice(0, MAX_LENGTH - HASH_LENGTH - 1)}_${shortHash(realName)}`;
}

/** A letter, a digit, `_` or `-`: what a wire name may hold past its first character. */
function isNameChar(code: number): boolean {
  return isLeadChar(code) || (code >= 48 && code <= 57) || code === 45;
}

/** A letter or `_`: what a wire name may start with. */
function isLeadChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

/** Where the first character a wire name may not hold is, or -1. */
function firstUnsafe(name: string): number {
  for (let i = 0; i < name.length; i += 1) if (!isNameChar(name.charCodeAt(i))) return i;
  return -1;
}

/** `name` with every unsafe character from `from` on made `_` (a whole code point, so an emoji becomes one `_`). */
function replaceUnsafe(name: string, from: number): string {
  let out = '';
  let kept = 0;
  for (let i = from; i < name.length; i += 1) {
    const code = name.charCodeAt(i);
    if (isNameChar(code)) continue;
    out += `${name.slice(kept, i)}_`;
    const paired = code >= 0xd800 && code <= 0xdbff && isLowSurrogate(name.charCodeAt(i + 1));
    if (paired) i += 1;
    kept = i + 1;
  }
  return out + name.slice(kept);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** 32-bit FNV-1a of the name's UTF-16 code units, as 8 hex digits: stable across runs and machines. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(HASH_LENGTH, '0');
}
