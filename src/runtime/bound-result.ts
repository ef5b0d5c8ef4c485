import { headOf } from '../core/text-cut.js';
/** Replaces every known secret value in `text` with a marker naming it, so it never reaches a model or a log. */
export function redactSecrets(text: string, secrets: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [name, value] of secrets) {
    // Very short values would redact ordinary words; a secret shorter than 4 characters is not one worth hiding.
    if (value.length < 4) continue;
    out = out.split(value).join(`[secret:${name}]`);
  }
  return out;
}

/** Cuts a result longer than `limit` characters, saying how much was kept and how to ask for the rest. */
export function boundResult(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const kept = headOf(text, limit);
  return (
    `${kept}\n[the result was cut: showing the first ${limit.toLocaleString('en-US')} of ` +
    `${text.length.toLocaleString('en-US')} characters. Ask for the specific part you need, e.g. with a narrower query or an offset.]`
  );
}
