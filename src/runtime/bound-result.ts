import { headOf } from '../core/text-cut.js';

/** Hides stored secret values (the same function that hides them in command output, overlaps included). */
export { redactSecrets } from '../tools/builtin/index.js';

/** Cuts a result longer than `limit` characters, saying how much was kept and how to ask for the rest. */
export function boundResult(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const kept = headOf(text, limit);
  return (
    `${kept}\n[the result was cut: showing the first ${limit.toLocaleString('en-US')} of ` +
    `${text.length.toLocaleString('en-US')} characters. Ask for the specific part you need, e.g. with a narrower query or an offset.]`
  );
}
