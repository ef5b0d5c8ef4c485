/** A secret shorter than this would hide ordinary words; it is not one worth hiding (as the runtime does). */
export const MIN_REDACTED_LENGTH = 4;

/** Where a secret occurs in a text: [start, end) and its name. */
export type SecretSpan = readonly [start: number, end: number, name: string];

/** The stored secrets worth hiding (name, value). */
export function redactable(secrets: ReadonlyMap<string, string>): Array<readonly [string, string]> {
  return [...secrets].filter(([, value]) => value.length >= MIN_REDACTED_LENGTH);
}

/** Every occurrence of every secret in `text`, overlapping ones included, by start. */
export function secretSpans(text: string, secrets: ReadonlyMap<string, string>): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const [name, value] of redactable(secrets)) {
    for (let at = text.indexOf(value); at !== -1; at = text.indexOf(value, at + 1)) {
      spans.push([at, at + value.length, name]);
    }
  }
  return spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
}

/**
 * Replaces every stored secret value in `text` with a marker naming it. Occurrences that overlap (one secret
 * running into another) are hidden together, under one marker naming each, so no part of either shows.
 */
export function redactSecrets(text: string, secrets: ReadonlyMap<string, string>): string {
  const spans = secretSpans(text, secrets);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (let i = 0; i < spans.length; ) {
    let [start, end] = spans[i] as SecretSpan;
    const names = new Set<string>();
    while (i < spans.length && (spans[i] as SecretSpan)[0] < end) {
      const [, spanEnd, name] = spans[i] as SecretSpan;
      end = Math.max(end, spanEnd);
      names.add(name);
      i++;
    }
    start = Math.max(start, at);
    out += `${text.slice(at, start)}[secret:${[...names].join(',')}]`;
    at = end;
  }
  return out + text.slice(at);
}

const CREDENTIAL_NAME =
  /(?:^|_)(?:API_?KEY|TOKEN|SECRET|SECRET_KEY|PASSWORD|PASSWD|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)(?:_|$)/i;

/**
 * The environment variables whose names say they hold a credential (`OPENAI_API_KEY`, `GITHUB_TOKEN`,
 * `AWS_SECRET_ACCESS_KEY`…), name → value: a command may use them, but their values are hidden in its output
 * like stored secrets.
 */
export function credentialVariables(env: NodeJS.ProcessEnv): Map<string, string> {
  const found = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= 8 && CREDENTIAL_NAME.test(name)) found.set(name, value);
  }
  return found;
}
