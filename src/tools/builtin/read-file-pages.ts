import { headOf, wholeStart } from '../../core/text-cut.js';
import { cutPastMarker } from '../redact-secrets.js';

/** A line longer than this is cut when shown among others. */
export const MAX_LINE_CHARS = 2000;

/** The most characters of one line a single read shows when it reads that line alone. */
export const MAX_PIECE_CHARS = 16_000;

/** The fewest characters of a line a piece shows, however little room the result has. */
const MIN_PIECE_CHARS = 500;

/** Lines shown with their numbers, and the first line that had to be cut, with how much of it shows. */
export interface NumberedLines {
  readonly shown: readonly string[];
  readonly firstCut:
    | { readonly line: number; readonly chars: number; readonly shownChars: number }
    | undefined;
  readonly cutCount: number;
}

/** How many characters of `line` show when it is cut after `max` (never inside a secret's marker). */
function shownLength(line: string, max: number, hidden?: ReadonlyMap<string, string>): number {
  if (line.length <= max) return line.length;
  const at = hidden ? cutPastMarker(line, max, hidden) : max;
  return at >= line.length ? line.length : headOf(line, at).length;
}

/**
 * The numbered lines from `first` on, as many of `lines` as fit in `room` characters (at least one): a
 * result the runtime had to cut would lose the last lines and the note saying where to read on. A line over
 * {@link MAX_LINE_CHARS} is cut, saying so.
 */
export function numberedLines(
  lines: readonly string[],
  first: number,
  room: number,
  hidden?: ReadonlyMap<string, string>,
): NumberedLines {
  const shown: string[] = [];
  let firstCut: NumberedLines['firstCut'];
  let cutCount = 0;
  let used = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    const keep = shownLength(line, MAX_LINE_CHARS, hidden);
    const text = `${String(first + i).padStart(6)}\t${keep < line.length ? `${line.slice(0, keep)} … [line cut]` : line}`;
    used += text.length + 1;
    if (shown.length > 0 && used > room) break;
    shown.push(text);
    if (keep < line.length) {
      cutCount += 1;
      firstCut ??= { line: first + i, chars: line.length, shownChars: keep };
    }
  }
  return { shown, firstCut, cutCount };
}

/** The note's sentence about lines that were cut: where the first one goes on, and how many others there are. */
export function cutNote(lines: NumberedLines): string {
  const cut = lines.firstCut;
  if (cut === undefined) return '';
  const others = lines.cutCount - 1;
  const more = others > 0 ? ` ${others} more line${others === 1 ? ' was' : 's were'} cut the same way.` : '';
  return (
    `line ${cut.line} is ${cut.chars.toLocaleString('en-US')} characters, cut after ${cut.shownChars.toLocaleString('en-US')}: ` +
    `call read_file with offset ${cut.line} and column ${cut.shownChars + 1} to read the rest of it.${more}`
  );
}

/**
 * Line `number` of `count` shown alone, from character `column` (1 is its start) for as much as fits in
 * `room` (at most {@link MAX_PIECE_CHARS}), with a note saying which characters show and where to read on.
 */
export function linePiece(
  line: string,
  at: { readonly number: number; readonly count: number; readonly column: number },
  room: number,
  hidden?: ReadonlyMap<string, string>,
): string {
  const from = wholeStart(line, at.column - 1);
  const size = Math.max(MIN_PIECE_CHARS, Math.min(room, MAX_PIECE_CHARS));
  let end = Math.min(line.length, from + size);
  if (end < line.length && hidden) end = cutPastMarker(line, end, hidden);
  const piece = headOf(line.slice(from), end - from);
  const last = from + piece.length;
  const of = `line ${at.number} of ${at.count}: characters ${(from + 1).toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${line.length.toLocaleString('en-US')}`;
  const onward =
    last < line.length
      ? `. Call read_file with offset ${at.number} and column ${last + 1} to read on.`
      : `, the end of the line. ${at.number < at.count ? `Call read_file with offset ${at.number + 1} to read on.` : 'That is the end.'}`;
  return `${String(at.number).padStart(6)}\t${piece}\n[${of}${onward}]`;
}
