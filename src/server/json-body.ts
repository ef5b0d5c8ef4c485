import type { Context } from 'hono';
import { ApiError } from './api-error.js';

/** The largest request body the API reads. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The refusal of a body over {@link BODY_LIMIT_BYTES}. */
export function bodyTooLarge(): ApiError {
  return new ApiError(
    413,
    'body_too_large',
    `The body is over ${BODY_LIMIT_BYTES} bytes (1 MiB), the most this API reads; send less.`,
  );
}

/** The request's body as a JSON object; malformed JSON or anything but an object → 400, over the limit → 413. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await cappedText(c.req.raw.body);
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

/** A body's text, read no further than {@link BODY_LIMIT_BYTES}. */
async function cappedText(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > BODY_LIMIT_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
}
