import { headOf, wholeStart } from '../../core/text-cut.js';

/** How the rest of a long result can be asked for: the tool, and the argument it reads a result in parts by. */
export interface ResultPaging {
  readonly tool?: string | undefined;
  /** The argument (read_file's `offset`); without one, the cut names no argument. */
  readonly pagesBy?: string | undefined;
}

/** What the cut says about the part it left out. */
function cutNote(left: number, limit: number, paging: ResultPaging): string {
  const advice =
    paging.pagesBy === undefined
      ? 'To see it, ask for less at once (a narrower query, a smaller part).'
      : `To see it, call ${paging.tool ?? 'the tool'} again with ${paging.pagesBy} set to the part you need.`;
  return `\n[… ${left.toLocaleString('en-US')} characters left out here: a result holds at most ${limit.toLocaleString('en-US')}. ${advice}]\n`;
}

/**
 * Cuts a result longer than `limit` characters to fit within it: its start and its end are kept (the end
 * of a command's output holds the error and the exit status, a paged tool's note where to read on), with
 * a line between them saying how much was left out and how to see it — naming the argument the tool reads
 * its results in parts by, or no argument at all when it declares none.
 */
export function boundResult(text: string, limit: number, paging: ResultPaging = {}): string {
  if (text.length <= limit) return text;
  // The note's own length depends on the count it holds; the longest count it can hold is the text's.
  const room = limit - cutNote(text.length, limit, paging).length;
  if (room < 3) return headOf(text, limit);
  const head = headOf(text, Math.ceil((room * 2) / 3));
  const tailStart = wholeStart(text, text.length - (room - head.length));
  const tail = text.slice(tailStart);
  return `${head}${cutNote(tailStart - head.length, limit, paging)}${tail}`;
}
