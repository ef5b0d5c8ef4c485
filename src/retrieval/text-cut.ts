/** Text with its whitespace collapsed, cut at a word to at most `max` characters ("…" marks a cut). */
export function cutText(text: string, max: number): string {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  if (max <= 1) return '';
  const room = line.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > max / 2 ? room.slice(0, space) : room).replace(/[\s,;:.]+$/, '')}…`;
}

/** The first line of a description, cut to at most `max` characters. */
export function firstLine(text: string, max: number): string {
  return cutText((text ?? '').trim().split('\n')[0] ?? '', max);
}
