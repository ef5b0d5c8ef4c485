/** A name every provider accepts for a function (Gemini also wants a letter or `_` first). */
export const WIRE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** One unsafe character (a whole code point, so an emoji becomes one `_`). */
const UNSAFE = /[^A-Za-z0-9_-]/gu;

const MAX_LENGTH = 64;
const HASH_LENGTH = 8;

/** A character whose `_` stands for nothing guessable: names of other scripts would all look alike. */
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The model-safe name a tool travels under: its real name when that is already safe; otherwise
 * every other character becomes `_` (and a leading digit or `-` gets a `_` in front). A name longer
 * than 64 characters keeps its first 55 and a short hash of the REAL name, so two long names that
 * share a beginning still travel under different names; so does a name with characters outside
 * ASCII (`mcp/jp/検索` and `mcp/jp/削除` would otherwise both be `mcp_jp___`).
 */
export function wireName(realName: string): string {
  if (WIRE_NAME_PATTERN.test(realName)) return realName;
  let safe = realName.replace(UNSAFE, '_');
  if (!/^[A-Za-z_]/.test(safe)) safe = `_${safe}`;
  const lossy = NON_ASCII.test(realName);
  if (!lossy && safe.length <= MAX_LENGTH) return safe;
  return `${safe.slice(0, MAX_LENGTH - HASH_LENGTH - 1)}_${shortHash(realName)}`;
}

/** 32-bit FNV-1a of the name's UTF-16 code units, as 8 hex digits: stable across runs and machines. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(HASH_LENGTH, '0');
}
