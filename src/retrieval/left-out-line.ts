import { headOf } from '../core/text-cut.js';

/** The opening of the catalog's last line (what is left out follows). */
export const LEFT_OUT_PREFIX = '[not listed here for room; tool_search("what you need") finds any of them] ';

/**
 * Most characters the last line is counted at while the catalog fills: half the room, and never less
 * than the prefix and a count of `groups`. A longer line names what fits and counts the rest, so
 * hundreds of left-out groups cannot crowd the platform's own out of the catalog.
 */
export function leftOutCap(max: number, groups: number): number {
  return Math.max(Math.floor(max / 2), LEFT_OUT_PREFIX.length + countOf(groups, true).length);
}

/**
 * The last line within `room`: every entry, or the first entries that fit and a count of the rest;
 * undefined when not even the count fits.
 */
export function leftOutLine(entries: readonly string[], room: number): string | undefined {
  const whole = LEFT_OUT_PREFIX + entries.join(', ');
  if (whole.length <= room) return whole;
  let line = LEFT_OUT_PREFIX;
  let named = 0;
  for (const entry of entries) {
    const next = named === 0 ? line + entry : `${line}, ${entry}`;
    if (next.length + countOf(entries.length - named - 1, true).length > room) break;
    line = next;
    named += 1;
  }
  const rest = countOf(entries.length - named, named > 0);
  return line.length + rest.length <= room ? line + rest : undefined;
}

/** "…, and 12 more groups" after named entries, "12 groups" alone. */
function countOf(n: number, afterNamed: boolean): string {
  const groups = n === 1 ? 'group' : 'groups';
  return afterNamed ? `, and ${n} more ${groups}` : `${n} ${groups}`;
}

/** Cuts text to the room at the last ", " that fits and marks the cut; "" when not even the prefix fits. */
export function cutToRoom(text: string, max: number): string {
  if (max <= LEFT_OUT_PREFIX.length) return '';
  const room = headOf(text, max - 1);
  const comma = room.lastIndexOf(', ');
  return `${comma > 0 ? room.slice(0, comma) : room}…`;
}
