import { holdsFolded, isSpace } from './char-class.js';
import { terms } from './tokenize.js';

/** Words that join the parts of a many-part request ("…, then …"), each between white space. */
const CONNECTIVES = [
  'and then',
  'then',
  'also',
  'additionally',
  'finally',
  'afterwards',
  'after that',
  'as well as',
] as const;

/** Splits a request into its sentences and `then`/`also`-joined parts (at least two words each). */
export function clauses(query: string): string[] {
  const breaks = new ClauseBreaks(query);
  const parts: string[] = [];
  let from = 0;
  for (let at = 0; at < query.length; ) {
    const end = breaks.endAt(at);
    if (end < 0) at += 1;
    else {
      parts.push(query.slice(from, at));
      from = end;
      at = end;
    }
  }
  parts.push(query.slice(from));
  return parts.map((c) => c.trim()).filter((c) => terms(c).length >= 2);
}

/** `.!?;` or a line end: a run of them ends a sentence. */
function isStop(c: number): boolean {
  return c === 46 || c === 33 || c === 63 || c === 59 || c === 10;
}

/**
 * Where clause breaks end, asked at rising positions. A break is a run of sentence stops followed by
 * white space (or ending the text), a line end, or a connective between white space (a comma may
 * lead). The run a position sits in is measured once and reused while the positions stay inside it,
 * so reading a text costs one pass however long its runs of stops or spaces are.
 */
class ClauseBreaks {
  private stopsFrom = -1;
  private stopsEnd = -1;
  /** The last line end in the run of stops (-1 when it holds none). */
  private stopsLastNewline = -1;
  private spaceFrom = -1;
  private spaceEnd = -1;

  constructor(private readonly text: string) {}

  /** The end of the break that starts at `at`, or -1 when none does. */
  endAt(at: number): number {
    const text = this.text;
    const n = text.length;
    const end = this.stopsEndFrom(at);
    if (end > at) {
      if (end < n && isSpace(text.charCodeAt(end))) return end + 1;
      // A line end is a stop and white space both: the run can end just after its last one.
      if (this.stopsLastNewline > at) return this.stopsLastNewline + 1;
      if (end === n) return n;
      if (text.charCodeAt(at) === 10) return at + 1;
    }
    const lead = text.charCodeAt(at) === 44 ? at + 1 : at;
    const word = this.spaceEndFrom(lead);
    if (word === lead) return -1;
    for (const connective of CONNECTIVES) {
      const after = word + connective.length;
      if (!holdsFolded(text, connective, word) || !isSpace(text.charCodeAt(after))) continue;
      let stop = after + 1;
      while (stop < n && isSpace(text.charCodeAt(stop))) stop += 1;
      return stop;
    }
    return -1;
  }

  /** The end of the run of stops from `at` (`at` itself when none is there). */
  private stopsEndFrom(at: number): number {
    if (at >= this.stopsFrom && at < this.stopsEnd) return this.stopsEnd;
    const text = this.text;
    if (!isStop(text.charCodeAt(at))) return at;
    let end = at;
    let newline = -1;
    while (end < text.length && isStop(text.charCodeAt(end))) {
      if (text.charCodeAt(end) === 10) newline = end;
      end += 1;
    }
    this.stopsFrom = at;
    this.stopsEnd = end;
    this.stopsLastNewline = newline;
    return end;
  }

  /** The end of the run of white space from `at` (`at` itself when none is there). */
  private spaceEndFrom(at: number): number {
    if (at >= this.spaceFrom && at < this.spaceEnd) return this.spaceEnd;
    const text = this.text;
    let end = at;
    while (end < text.length && isSpace(text.charCodeAt(end))) end += 1;
    if (end > at) {
      this.spaceFrom = at;
      this.spaceEnd = end;
    }
    return end;
  }
}
