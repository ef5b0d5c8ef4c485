import type { Context } from 'hono';
import { ApiError } from './api-error.js';

/** The request's body as a JSON object; malformed JSON or anything but an object → 400. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'bad_json', `The body is not valid JSON (${(error as Error).message}).`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'bad_request', 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** A field that must be a string when given; `required` refuses it absent or blank. */
export function stringField(
  body: Record<string, unknown>,
  name: string,
  required: boolean,
): string | undefined {
  const value = body[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || (required && value.trim() === '')) {
    throw new ApiError(
      400,
      'bad_request',
      required ? `"${name}" must be a non-empty string.` : `"${name}" must be a string when given.`,
      { field: name },
    );
  }
  return value;
}

/** A field that must be one of `allowed` when given. */
export function choiceField<T extends string>(
  body: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
  required = false,
): T | undefined {
  const value = body[name];
  if (value === undefined && !required) return undefined;
  if (!allowed.includes(value as T)) {
    throw new ApiError(
      400,
      'bad_request',
      `"${name}" must be one of ${allowed.map((a) => `"${a}"`).join(', ')}.`,
      {
        field: name,
      },
    );
  }
  return value as T;
}
