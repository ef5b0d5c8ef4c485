/** Which model a turn runs on, as far as it is known (a `TurnRecord` is one: absent before migration 12). */
export interface ModelOrigin {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly baseURL?: string | undefined;
}

/**
 * The first of provider, model id and base URL on which `a` and `b` both say something and differ; base
 * URLs are compared as the SDKs use them (`http://host/v1/` is `http://host/v1`, see `baseURLKey`).
 */
export function modelDifference(
  a: ModelOrigin,
  b: ModelOrigin,
): 'provider' | 'model' | 'baseURL' | undefined {
  return (['provider', 'model', 'baseURL'] as const).find((key) => {
    const [x, y] = [a[key], b[key]];
    if (x === undefined || y === undefined) return false;
    return key === 'baseURL' ? baseURLKey(x) !== baseURLKey(y) : x !== y;
  });
}

/**
 * A base URL in the form two spellings of one endpoint share: parsed (so the scheme and host are in
 * lower case and a default port is left out) and without one trailing slash on its path, which the SDKs
 * drop when they add a request's path. Anything else (another path, a doubled slash, a query) differs.
 */
export function baseURLKey(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text.endsWith('/') ? text.slice(0, -1) : text;
  }
  const tail = url.search + url.hash;
  const head = url.href.slice(0, url.href.length - tail.length);
  return (head.endsWith('/') ? head.slice(0, -1) : head) + tail;
}

/** A model as a person reads it, e.g. `openai-compatible model "demo" at http://127.0.0.1:8787/v1`. */
export function describeModel(origin: ModelOrigin): string {
  const at = origin.baseURL ? ` at ${origin.baseURL}` : '';
  return `${origin.provider ?? 'an unknown provider'} model "${origin.model ?? '?'}"${at}`;
}
