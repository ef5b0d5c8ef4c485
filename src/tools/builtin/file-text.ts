import { isUtf8 } from 'node:buffer';
import { open } from 'node:fs/promises';
import { headOf, wholeStart } from '../../core/text-cut.js';
import { clearOfSecrets, cutPastMarker, redactSecrets, secretSpans } from '../redact-secrets.js';
import type { Checked } from './checked-work.js';
import { ready, refuse } from './checked-work.js';
import { hardLinkRefusal, type Located } from './file-scope.js';

/** The largest file the file tools read whole; larger ones are searched with grep instead. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

/** How a path argument is read: up to 4,096 characters, spaces around it dropped. */
export const PATH_TEXT = { maxLength: 4096, trim: true } as const;

/**
 * A line as shown: cut after `max` characters, saying so. Given the secrets already hidden in it, the cut
 * moves past a marker it would split, so the marker shows whole.
 */
export function cutLine(line: string, max: number, hidden?: ReadonlyMap<string, string>): string {
  if (line.length <= max) return line;
  const at = hidden ? cutPastMarker(line, max, hidden) : max;
  return at >= line.length ? line : `${headOf(line, at)} … [line cut]`;
}

/**
 * A matching line as shown: its secrets hidden, then cut to about `max` characters that hold where its match
 * starts (`at`), a third of them before it; each cut end says so. A start that would split a secret is moved
 * back to the secret's start, so the secret is hidden whole rather than partly shown.
 */
export function cutAround(
  line: string,
  at: number,
  max: number,
  secrets?: ReadonlyMap<string, string>,
): string {
  let start = line.length > max ? Math.max(0, Math.min(at - Math.floor(max / 3), line.length - max)) : 0;
  if (start > 0 && secrets) start = clearOfSecrets(secretSpans(line, secrets), start, 'back');
  start = wholeStart(line, start);
  const rest = start > 0 ? line.slice(start) : line;
  const shown = secrets ? cutLine(redactSecrets(rest, secrets), max, secrets) : cutLine(rest, max);
  return start > 0 ? `[line cut] … ${shown}` : shown;
}

/** True when the bytes look binary (a NUL among the first 8 KB). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** The lines of a text, without the empty piece after a final newline. */
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Reads a located file as text, or the refusal a call gets: nothing there, a folder, something that is not a
 * regular file, too large, or binary.
 */
export async function readTextFile(
  located: Located,
  tool: string,
  options: { readonly utf8Only?: boolean } = {},
): Promise<Checked<string>> {
  const { stat, shown } = located;
  if (stat === undefined) {
    return refuse('not_found', `${shown} does not exist.`, [
      'Use glob or list_dir to find the file you mean.',
    ]);
  }
  if (stat.isDirectory()) {
    return refuse('is_folder', `${shown} is a folder, not a file.`, ['Use list_dir to see what it holds.']);
  }
  if (!stat.isFile())
    return refuse('not_a_file', `${shown} is not a regular file, so ${tool} cannot use it.`);
  if (stat.size > MAX_FILE_BYTES) {
    return refuse(
      'too_large',
      `${shown} is ${stat.size.toLocaleString('en-US')} bytes, more than the ${MAX_FILE_BYTES.toLocaleString('en-US')} ${tool} handles.`,
      ['Use grep to find the part you need.'],
    );
  }
  // Read through one open file, checked as it is opened: a hard link made since it was located counts too.
  const handle = await open(located.real, 'r');
  let bytes: Buffer;
  try {
    const opened = await handle.stat();
    if (opened.nlink > 1) return hardLinkRefusal(shown, located.real, opened.nlink);
    bytes = await handle.readFile();
  } finally {
    await handle.close();
  }
  if (looksBinary(bytes)) {
    return refuse('binary', `${shown} holds binary data, not text, so ${tool} cannot use it.`);
  }
  // Shown, other encodings are close enough; written back, every byte outside UTF-8 would be lost.
  if (options.utf8Only && !isUtf8(bytes)) {
    return refuse(
      'not_utf8',
      `${shown} is not UTF-8 text, so ${tool} would change bytes outside the edit (each would become U+FFFD).`,
      ['Convert the file to UTF-8 with a bash command (e.g. iconv) first, or change it with one.'],
    );
  }
  return ready(bytes.toString('utf8'));
}
