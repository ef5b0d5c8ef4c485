/** Which model a turn runs on, as far as it is known (a `TurnRecord` is one: absent before migration 12). */
export interface ModelOrigin {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly baseURL?: string | undefined;
}

/** The first of provider, model id and base URL on which `a` and `b` both say something and differ. */
export function modelDifference(
  a: ModelOrigin,
  b: ModelOrigin,
): 'provider' | 'model' | 'baseURL' | undefined {
  return (['provider', 'model', 'baseURL'] as const).find(
    (key) => a[key] !== undefined && b[key] !== undefined && a[key] !== b[key],
  );
}

/** A model as a person reads it, e.g. `openai-compatible model "demo" at http://127.0.0.1:8787/v1`. */
export function describeModel(origin: ModelOrigin): string {
  const at = origin.baseURL ? ` at ${origin.baseURL}` : '';
  return `${origin.provider ?? 'an unknown provider'} model "${origin.model ?? '?'}"${at}`;
}
