const YES = new Set(['true', 'yes', 'on', '1', 'y']);
const NO = new Set(['false', 'no', 'off', '0', 'n']);

/**
 * Reads a yes/no value as the word it spells: a real boolean is itself; text is trimmed and read in any case
 * (true/yes/on/1/y, false/no/off/0/n). Anything else — a blank, another word, a number — spells neither.
 */
export function yesOrNo(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (YES.has(word)) return true;
  if (NO.has(word)) return false;
  return undefined;
}
