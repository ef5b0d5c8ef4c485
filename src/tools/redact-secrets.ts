/** A secret shorter than this would hide ordinary words; it is not one worth hiding (as the runtime does). */
export const MIN_REDACTED_LENGTH = 4;

/** Where a secret occurs in a text: [start, end) and its name. */
export type SecretSpan = readonly [start: number, end: number, name: string];

/** An encoded form shorter than this could match ordinary text by chance; it is not looked for. */
const MIN_ENCODED_LENGTH = 8;

/** Forms worked out before, by value (secrets are few and fixed while a runtime runs). */
const formsByValue = new Map<string, readonly string[]>();

/** The base64 characters that depend only on the secret's bytes when they start `skip` bytes into a block. */
function base64Core(bytes: Buffer, skip: number, alphabet: 'base64' | 'base64url'): string {
  const text = Buffer.concat([Buffer.alloc(skip), bytes])
    .toString(alphabet)
    .replace(/=+$/, '');
  return text.slice(Math.ceil((8 * skip) / 6), Math.floor((8 * (skip + bytes.length)) / 6));
}

/**
 * The forms a secret can show in: as it is, and as a command would print it encoded — base64 (standard
 * and URL-safe, at each of the three places it can start in a block of three bytes, so `user:TOKEN` in a
 * Basic authorization header is caught too), hex (either case) and percent-encoding; for a value over
 * several lines, also each line of it (of 8 characters or more).
 */
export function secretForms(value: string): readonly string[] {
  let forms = formsByValue.get(value);
  if (forms !== undefined) return forms;
  const bytes = Buffer.from(value, 'utf8');
  const hex = bytes.toString('hex');
  const found = new Set([value, hex, hex.toUpperCase(), encodeURIComponent(value)]);
  for (const alphabet of ['base64', 'base64url'] as const) {
    for (let skip = 0; skip < 3; skip += 1) found.add(base64Core(bytes, skip, alphabet));
  }
  // Each line of a secret over several lines (a private key, a JSON credential) is hidden on its own too:
  // a tool that shows text line by line (grep) never holds the whole value in one piece.
  const lines = value.split(/\r?\n/);
  if (lines.length > 1) for (const line of lines) found.add(line.trim());
  forms = [...found].filter((form) => form === value || form.length >= MIN_ENCODED_LENGTH);
  if (formsByValue.size < 1024) formsByValue.set(value, forms);
  return forms;
}

/** The stored secrets worth hiding, each form of each (name, text to hide). */
export function redactable(secrets: ReadonlyMap<string, string>): Array<readonly [string, string]> {
  const out: Array<readonly [string, string]> = [];
  for (const [name, value] of secrets) {
    if (value.length < MIN_REDACTED_LENGTH) continue;
    for (const form of secretForms(value)) out.push([name, form]);
  }
  return out;
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

/** Moves a cut at `at` back (or on) until no secret occurrence among `spans` crosses it. */
export function clearOfSecrets(spans: readonly SecretSpan[], at: number, way: 'back' | 'on'): number {
  let cut = at;
  for (let moved = true; moved; ) {
    moved = false;
    for (const [s, e] of spans) {
      if (s < cut && cut < e) {
        cut = way === 'back' ? s : e;
        moved = true;
      }
    }
  }
  return cut;
}

/** How many lines a piece of text ends (`\r\n` counting once). */
function lineBreaks(text: string): number {
  return text.split(/\r?\n/).length - 1;
}

/**
 * Replaces every stored secret value in `text` (as it is or encoded, see `secretForms`) with a marker naming
 * it. Occurrences that overlap (one secret running into another) are hidden together, under one marker
 * naming each, so no part of either shows. With `keepLines`, a hidden value that held line breaks is
 * followed by as many, so the text keeps its line count (and its line numbers).
 */
export function redactSecrets(
  text: string,
  secrets: ReadonlyMap<string, string>,
  options: { readonly keepLines?: boolean } = {},
): string {
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
    const breaks = options.keepLines ? '\n'.repeat(lineBreaks(text.slice(start, end))) : '';
    out += `${text.slice(at, start)}[secret:${[...names].join(',')}]${breaks}`;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * Where a cut at `at` in a text `redactSecrets` has hidden `secrets` in should fall so that it splits no
 * marker: past the end of a marker it would split, else `at`.
 */
export function cutPastMarker(text: string, at: number, secrets: ReadonlyMap<string, string>): number {
  const start = text.lastIndexOf('[secret:', at - 1);
  if (start === -1) return at;
  const end = text.indexOf(']', start);
  // The longest marker names every secret (overlapping values are hidden under one marker).
  const longest = '[secret:]'.length + [...secrets.keys()].reduce((n, name) => n + name.length + 1, 0);
  return end >= at && end - start < longest ? end + 1 : at;
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
