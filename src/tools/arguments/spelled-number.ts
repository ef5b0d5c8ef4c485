const INTEGER_TEXT = /^-?\d+$/;
const NUMBER_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * The number a text spells in plain decimal (`12`, `-3.5`, `1e3`), and whether it is a whole number an
 * integer declaration takes exactly (safe); undefined for any other text.
 */
export function spelledNumber(text: string): { readonly value: number; readonly whole: boolean } | undefined {
  if (!NUMBER_TEXT.test(text)) return undefined;
  const value = Number(text);
  return { value, whole: INTEGER_TEXT.test(text) && Number.isSafeInteger(value) };
}
