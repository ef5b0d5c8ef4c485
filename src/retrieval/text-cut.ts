import { headOf } from '../core/text-cut.js';

/** Whitespace a collapse would change: a run of two, or a tab, a line break or any space but U+0020. */
const UNEVEN_SPACE = /\s\s|[^\S ]/;

/** Text with its whitespace collapsed, cut at a word to at most `max` characters ("…" marks a cut). */
export function cutText(text: string, max: number): string {
  const whole = text ?? '';
  // Only the head can be shown: collapsing whitespace in the rest of a long text is wasted work.
  const head = whole.length > 2 * max + 40 ? headOf(whole, 2 * max + 40) : whole;
  // Most descriptions hold only single spaces: testing costs a third of replacing each one by itself.
  const line = (UNEVEN_SPACE.test(head) ? head.replace(/\s+/g, ' ') : head).trim();
  if (line.length <= max && head.length === whole.length) return line;
  if (max <= 1) return '';
  // Never half an emoji: a lone surrogate is not valid text for a model's API.
  const room = headOf(line, max - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > max / 2 ? room.slice(0, space) : room).replace(/[\s,;:.]+$/, '')}…`;
}

/** The first line of a description, cut to at most `max` characters. */
export function firstLine(text: string, max: number): string {
  const trimmed = (text ?? '').trim();
  const eol = trimmed.indexOf('\n');
  return cutText(eol < 0 ? trimmed : trimmed.slice(0, eol), max);
}
