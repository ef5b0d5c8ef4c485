import { type FetchLike, httpFetch } from './http-fetch.js';

/** A wrapping `fetch` that keeps the raw body of every failed response, found again by its headers. */
export interface ErrorBodyCapture {
  readonly fetch: FetchLike;
  /** The raw body of the failed response whose `headers` object an SDK error carries. */
  bodyOf(headers: unknown): string | undefined;
}

/**
 * Wraps `base` so that a non-2xx response's body is read once and remembered. SDKs throw some bodies
 * away (the `openai` SDK keeps only a top-level `error` key, so Gemini's arrays and Mistral's shapes are
 * lost); the SDK error still carries the response's `headers` object, which is the key here.
 */
export function captureErrorBodies(base: FetchLike = httpFetch): ErrorBodyCapture {
  const bodies = new WeakMap<object, string>();
  return {
    async fetch(input, init) {
      const response = await base(input, init);
      if (response.ok) return response;
      const text = await response.text().catch(() => '');
      // A 304 (a server may send one to any request) can carry no body: given one, Response throws.
      const copy = new Response(response.status === 304 ? null : text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      bodies.set(copy.headers, text);
      return copy;
    },
    bodyOf(headers) {
      return typeof headers === 'object' && headers !== null ? bodies.get(headers) : undefined;
    },
  };
}
