const WORD_BREAK = /[_\-\s]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;

/** The words a key is made of, whatever its convention (`dueDate`, `DueDate`, `due_date` → due, date). */
export function keyWords(key: string): string[] {
  return key.split(WORD_BREAK).filter((w) => w.length > 0);
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** Every spelling a declared key answers to: itself, camelCase, PascalCase and snake_case. */
export function keySpellings(key: string): string[] {
  const words = keyWords(key);
  if (words.length === 0) return [key];
  const snake = words.map((w) => w.toLowerCase()).join('_');
  const pascal = words.map(capitalized).join('');
  const camel = words[0]!.toLowerCase() + words.slice(1).map(capitalized).join('');
  return [...new Set([key, camel, pascal, snake])];
}

/**
 * A key with its letter case and separators set aside (`userID`, `USER_ID`, `userid` → userid): a key a
 * model sends that folds to the same as exactly one declared key is read as that key.
 */
export function foldedKey(key: string): string {
  return keyWords(key).join('').toLowerCase();
}
