/**
 * Texts of the schemas written last, oldest first: a tool's first request reads its schema's text twice
 * (whether a string in it holds half of a character, and its bytes on the wire), both within that
 * request, which carries at most 128 tools. Kept no longer, so a catalog of thousands of tools does not
 * hold each one's text beside its bytes on the wire; the oldest goes first, never refreshed by a read.
 */
const recent = new Map<object, string>();
const KEPT_TEXTS = 256;
/** Each text's length, for as long as its schema object lives (an offered schema is never changed in place). */
const lengths = new WeakMap<object, number>();

/**
 * A tool's parameters schema as `JSON.stringify` writes it. A tool's first request reads it three ways
 * (its size for the context estimate, whether a string in it holds half of a character, and its bytes
 * on the wire): one text serves all three, the size through `schemaJsonLength`.
 */
export function schemaJson(parameters: object): string {
  let text = recent.get(parameters);
  if (text === undefined) {
    text = JSON.stringify(parameters);
    if (recent.size >= KEPT_TEXTS) recent.delete(recent.keys().next().value as object);
    recent.set(parameters, text);
    lengths.set(parameters, text.length);
  }
  return text;
}

/** The length of `schemaJson(parameters)`, remembered per schema object (every request is estimated). */
export function schemaJsonLength(parameters: object): number {
  return lengths.get(parameters) ?? schemaJson(parameters).length;
}

/**
 * False when no string in the value `json` was written from holds half of a surrogate pair:
 * `JSON.stringify` writes such a half as a `\udXXX` escape (lowercase) and every whole character as
 * itself. True may also come from an escaped backslash before "ud", so it only says to look closer.
 */
export function mayHoldHalfCharacters(json: string): boolean {
  return json.includes('\\ud');
}
