import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from './errors.js';
import { describeJsonSyntax, jsonSyntaxError } from './json-syntax-error.js';

/** `text` without the byte-order mark some editors (Windows ones) put before UTF-8 JSON. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parses JSON a person wrote (a byte-order mark allowed). A syntax error comes back as one line saying
 * what is wrong and at which line and column (the parser's own message quoted the text around it, line
 * breaks and all, and gave no line).
 */
export function parseUserJson(text: string): { ok: true; data: unknown } | { ok: false; problem: string } {
  const json = withoutBom(text);
  try {
    return { ok: true, data: JSON.parse(json) };
  } catch (error) {
    const found = jsonSyntaxError(json);
    return {
      ok: false,
      problem: found ? describeJsonSyntax(found) : (error as Error).message.replace(/\s+/g, ' '),
    };
  }
}

/** The JSON a user's file holds; a missing, unreadable or invalid file is an InputError saying what to do. */
export function readJsonFile(
  file: string,
  what: string,
  options: { optional?: boolean } = {},
): { path: string; data: unknown; text: string } | undefined {
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
  const parsed = parseUserJson(text);
  if (!parsed.ok) throw new InputError(`the ${what} ${path} is not valid JSON: ${parsed.problem}`, path);
  return { path, data: parsed.data, text };
}
