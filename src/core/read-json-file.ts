import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from './errors.js';

/** `text` without the byte-order mark some editors (Windows ones) put before UTF-8 JSON. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The JSON a user's file holds; a missing, unreadable or invalid file is an InputError saying what to do. */
export function readJsonFile(
  file: string,
  what: string,
  options: { optional?: boolean } = {},
): { path: string; data: unknown } | undefined {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.optional) return undefined;
    throw new InputError(
      code === 'ENOENT'
        ? `the ${what} ${path} does not exist; create it or pass --config with the right path.`
        : `the ${what} ${path} could not be read: ${(error as Error).message}`,
      path,
    );
  }
  try {
    return { path, data: JSON.parse(withoutBom(text)) };
  } catch (error) {
    throw new InputError(`the ${what} ${path} is not valid JSON: ${(error as Error).message}`, path);
  }
}
