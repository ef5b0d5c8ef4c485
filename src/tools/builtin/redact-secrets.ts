/** A secret shorter than this would hide ordinary words; it is not one worth hiding (as the runtime does). */
export const MIN_REDACTED_LENGTH = 4;

/** The secret values worth hiding, longest first (so a value inside another cannot leave part of it). */
export function redactable(secrets: ReadonlyMap<string, string>): Array<readonly [string, string]> {
  return [...secrets]
    .filter(([, value]) => value.length >= MIN_REDACTED_LENGTH)
    .sort((a, b) => b[1].length - a[1].length);
}

/** Replaces every stored secret value in `text` with a marker naming the secret. */
export function redactSecrets(text: string, secrets: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [name, value] of redactable(secrets)) out = out.split(value).join(`[secret:${name}]`);
  return out;
}

/** Where the secret occurrences of `text` lie, as [start, end) spans. */
export function secretSpans(
  text: string,
  secrets: ReadonlyMap<string, string>,
): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  for (const [, value] of redactable(secrets)) {
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
      spans.push([at, at + value.length]);
    }
  }
  return spans;
}
