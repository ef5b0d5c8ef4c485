import { Bm25fScorer } from './bm25f-scorer.js';
import type { DeferredTerms } from './deferred-terms.js';
import type { FieldWeights, WeightedTerms } from './field-weights.js';
import { PairTable } from './pair-table.js';
import { PostingStore } from './posting-store.js';
import type { RetrievalTool } from './retrieval-tool.js';
import type { ScoreBuffer } from './score-buffer.js';
import { scanWords, termOf, terms, type WordSink, words } from './tokenize.js';
import { ToolTerms } from './tool-terms.js';
import { FIELDS, PAIRS_FIELD, toolText } from './tool-text.js';
import { WordTable } from './word-table.js';

const NF = FIELDS.length;

/**
 * A tool's distinct term ids with their per-field counts: entries `start` to `start + count` of
 * `terms`, and `fields` counts per entry in `tfs` (the index's shared arrays; read, never change).
 */
export interface TermCounts {
  readonly terms: Int32Array;
  readonly tfs: Uint16Array;
  readonly start: number;
  readonly count: number;
}

/** What `queryTermId` answers for a word the analysis drops (a stop word). */
export const STOP = -2;

/**
 * An inverted index over tools with BM25F scoring. Tools are added, replaced and removed one at a time
 * (an MCP server's list changing) without rebuilding; statistics (document frequency, field lengths)
 * are kept current, so scores equal those of an index built from scratch over the same tools.
 */
export class ToolIndex {
  private readonly slots: (RetrievalTool | undefined)[] = [];
  private readonly held = new ToolTerms(NF);
  private readonly free: number[] = [];
  private readonly bySlotName = new Map<string, number>();
  /** Term text → id; a pair of terms has an id too (see `pairId`), but no text. */
  private readonly ids = new Map<string, number>();
  private readonly pairIds = new PairTable();
  private readonly store = new PostingStore();
  /** Set while `upsertMany` loads an empty index: posting lists are laid out once at the end. */
  private loading = false;
  private readonly pairTerm: boolean[] = [];
  private readonly lengthSums = new Float64Array(NF);
  private live = 0;
  private changes = 0;
  /** Bumped by every change to the index; the scorer's caches older than it are stale. */
  private version = 0;
  private readonly scorer = new Bm25fScorer({
    store: this.store,
    held: this.held,
    lengthSums: this.lengthSums,
    live: () => this.live,
    capacity: () => this.slots.length,
    version: () => this.version,
  });
  /** Scratch for upsert: which terms the tool being added has (by stamp) and where in its list. */
  private seenStamp = new Int32Array(0);
  private seenAt = new Int32Array(0);
  private scratchCounts = new Uint16Array(0);
  private stamp = 0;
  private readonly termScratch: number[] = [];
  private readonly scratchLengths = new Float64Array(NF);
  private readonly pairScratch: number[] = [];
  /** Word → term id (-1 for a stop word), for every word a tool text has held. */
  private readonly wordIds = new WordTable();
  /** Where the text being read stands: its field, the previous term (for pairs), the count so far. */
  private readonly reading = { stamp: 0, analyse: true, field: 0, prev: -1, length: 0 };
  private readonly sink: WordSink = {
    span: (text, start, end) =>
      this.take(
        this.wordIds.getSpan(text, start, end) ?? this.internWord(text.slice(start, end).toLowerCase()),
      ),
    word: (word) => this.take(this.wordIds.get(word) ?? this.internWord(word)),
  };

  /**
   * `plain` reads every field as one text with no stop words and no stemming: the textbook BM25
   * baseline the benchmarks compare against.
   */
  constructor(readonly analyzer: 'standard' | 'plain' = 'standard') {}

  /** The terms the index reads from a text (queries go through the same analysis). */
  terms(text: string): string[] {
    return this.analyzer === 'plain' ? words(text) : terms(text);
  }

  /** The id of a term some tool holds; undefined when no tool does. */
  termId(term: string): number | undefined {
    const id = this.ids.get(term);
    return id !== undefined && this.store.df(id) > 0 ? id : undefined;
  }

  /**
   * The term id of a query word: `STOP` for a word the analysis drops, -1 when no tool holds its
   * term. A word some tool's text holds as written costs one look-up.
   */
  queryTermId(word: string): number {
    const known = this.wordIds.get(word);
    if (known !== undefined) return known < 0 ? STOP : this.store.df(known) > 0 ? known : -1;
    const t = this.analyzer === 'plain' ? word : termOf(word);
    if (t === '') return STOP;
    const id = this.ids.get(t);
    return id !== undefined && this.store.df(id) > 0 ? id : -1;
  }

  /** The term id of a word as some tool's text writes it (lowercase); undefined when none does. */
  wordTermId(word: string): number | undefined {
    const id = this.wordIds.get(word);
    return id !== undefined && id >= 0 && this.store.df(id) > 0 ? id : undefined;
  }

  /** The id of an adjacent pair of terms some tool holds in its name or description. */
  pairId(first: number, second: number): number | undefined {
    const id = this.pairIds.get(first, second);
    return id >= 0 && this.store.df(id) > 0 ? id : undefined;
  }

  /** True for the id of a term pair (not a word). */
  isPair(id: number): boolean {
    return this.pairTerm[id] === true;
  }

  /** Changes with every tool added, replaced or removed (what a term matches may have changed). */
  get generation(): number {
    return this.changes;
  }

  /** Number of tools indexed. */
  get size(): number {
    return this.live;
  }

  /** Highest slot in use + 1. */
  get capacity(): number {
    return this.slots.length;
  }

  /** Adds a tool, or replaces the one with the same name. */
  upsert(tool: RetrievalTool): void {
    if (this.bySlotName.has(tool.name)) this.remove(tool.name);
    const plain = this.analyzer === 'plain';
    const texts = toolText(tool, plain);
    const stamp = ++this.stamp;
    const termList = this.termScratch;
    termList.length = 0;
    const pairs = this.pairScratch;
    pairs.length = 0;
    const lengths = this.scratchLengths;
    lengths.fill(0);
    const reading = this.reading;
    reading.stamp = stamp;
    reading.analyse = !plain;
    // The plain baseline reads every field as one text (in the description's place), unanalysed.
    for (let f = 0; f < (plain ? 1 : PAIRS_FIELD); f += 1) {
      reading.field = plain ? 1 : f;
      reading.prev = -1;
      reading.length = 0;
      scanWords(plain ? texts.join(' ') : (texts[f] as string), this.sink);
      lengths[reading.field] = reading.length;
    }
    for (let k = 0; k < pairs.length; k += 1) this.count(pairs[k] as number, PAIRS_FIELD, stamp, termList);
    lengths[PAIRS_FIELD] = pairs.length;
    const slot = this.free.pop() ?? this.slots.length;
    this.held.set(slot, termList, this.scratchCounts, lengths);
    this.slots[slot] = tool;
    this.bySlotName.set(tool.name, slot);
    for (let f = 0; f < NF; f += 1) this.lengthSums[f] = (this.lengthSums[f] ?? 0) + (lengths[f] ?? 0);
    if (!this.loading)
      for (let i = 0; i < termList.length; i += 1) this.store.add(termList[i] as number, slot, i);
    this.live += 1;
    this.changes += 1;
    this.version += 1;
  }

  /** One word of the text being read: counted in its field, and paired with the word before it. */
  private take(id: number): void {
    if (id < 0) return;
    const r = this.reading;
    this.count(id, r.field, r.stamp, this.termScratch);
    r.length += 1;
    if (r.field <= 1 && r.analyse) {
      if (r.prev >= 0) this.pairScratch.push(this.internPair(r.prev, id));
      r.prev = id;
    }
  }

  /** Counts one occurrence of a term in a field of the tool being added (first sight appends it). */
  private count(id: number, field: number, stamp: number, termList: number[]): void {
    if (id >= this.seenStamp.length) this.growSeen(id + 1);
    let i: number;
    if (this.seenStamp[id] === stamp) i = this.seenAt[id] as number;
    else {
      i = termList.length;
      this.seenStamp[id] = stamp;
      this.seenAt[id] = i;
      termList.push(id);
      if ((i + 1) * NF > this.scratchCounts.length) {
        const grown = new Uint16Array(Math.max(1024, this.scratchCounts.length * 2));
        grown.set(this.scratchCounts);
        this.scratchCounts = grown;
      }
      for (let f = i * NF; f < i * NF + NF; f += 1) this.scratchCounts[f] = 0;
    }
    const at = i * NF + field;
    // Counts saturate at the 16-bit limit; BM25 saturates far sooner anyway.
    if ((this.scratchCounts[at] as number) < 65_535)
      this.scratchCounts[at] = (this.scratchCounts[at] as number) + 1;
  }

  /**
   * Adds many tools. Into an empty index they are loaded in bulk: every posting list is laid out
   * once at the end, in one flat array, instead of growing one list per term.
   */
  upsertMany(tools: Iterable<RetrievalTool>): void {
    if (this.live > 0) {
      for (const t of tools) this.upsert(t);
      return;
    }
    const list = Array.isArray(tools) ? (tools as readonly RetrievalTool[]) : [...tools];
    // Sized once from typical catalogs (per tool: ~4 distinct words, ~8 word pairs, ~40 terms),
    // so the tables are not rehashed and copied again and again while they fill.
    const n = list.length;
    this.wordIds.reserve(n * 4);
    this.pairIds.reserve(n * 8);
    this.store.reserveTerms(n * 12);
    this.held.expect(n, 40);
    this.growSeen(n * 12);
    this.loading = true;
    try {
      for (const t of list) this.upsert(t);
    } finally {
      this.loading = false;
      this.store.load(this.slots.length, this.held);
      this.held.trim();
      this.version += 1;
    }
  }

  /** Removes a tool by name; returns false when no such tool was indexed. */
  remove(name: string): boolean {
    const slot = this.bySlotName.get(name);
    if (slot === undefined) return false;
    const held = this.held;
    const start = held.start[slot] as number;
    for (let i = start; i < start + (held.count[slot] as number); i += 1)
      this.store.remove(held.terms[i] as number, slot);
    for (let f = 0; f < NF; f += 1) this.lengthSums[f] = (this.lengthSums[f] ?? 0) - held.length(slot, f);
    held.release(slot);
    this.slots[slot] = undefined;
    this.free.push(slot);
    this.bySlotName.delete(name);
    this.live -= 1;
    this.changes += 1;
    this.version += 1;
    return true;
  }

  /** The indexed tool with this name. */
  get(name: string): RetrievalTool | undefined {
    const slot = this.bySlotName.get(name);
    return slot === undefined ? undefined : this.slots[slot];
  }

  /** The tool in a slot (as returned by `accumulate`). */
  toolAt(slot: number): RetrievalTool | undefined {
    return this.slots[slot];
  }

  /** The slot of a named tool. */
  slotOf(name: string): number | undefined {
    return this.bySlotName.get(name);
  }

  /** Every indexed tool, in slot order. */
  *tools(): IterableIterator<RetrievalTool> {
    for (const t of this.slots) if (t) yield t;
  }

  /** How many tools hold the term. */
  df(id: number): number {
    return this.store.df(id);
  }

  /** Inverse document frequency (BM25's, always positive). */
  idf(id: number): number {
    return this.scorer.idf(id);
  }

  /** Sum of the idf of a tool's name terms (cached until the index changes). */
  nameIdf(slot: number): number {
    return this.scorer.nameIdf(slot);
  }

  /**
   * Share (by idf) of a tool's name terms that a query holds, each counted up to weight 1; `weight`
   * holds the query's weight by term id (zero for terms it lacks).
   */
  nameCoverage(slot: number, weight: Float64Array): number {
    return this.scorer.nameCoverage(slot, weight);
  }

  /**
   * Adds each weighted query term's BM25F contribution into the buffer (indexed by slot). Terms no
   * tool holds cost nothing; see `Bm25fScorer`.
   */
  accumulate(query: WeightedTerms, fw: FieldWeights, into: ScoreBuffer): void {
    this.scorer.accumulate(query, fw, into);
  }

  /** `accumulate` with the terms at least `from` tools hold kept apart in `d` (see `DeferredTerms`). */
  accumulateDeferring(
    q: WeightedTerms,
    fw: FieldWeights,
    into: ScoreBuffer,
    d: DeferredTerms,
    from: number,
  ): void {
    this.scorer.accumulateDeferring(q, fw, into, d, from);
  }

  /** Adds what `deferred` kept apart to every tool still without it. */
  complete(fw: FieldWeights, into: ScoreBuffer, deferred: DeferredTerms): void {
    this.scorer.complete(fw, into, deferred);
  }

  /** Number of term ids handed out (words and pairs); every id is below it. */
  get termCount(): number {
    return this.store.termCount;
  }

  /** A tool's term ids with their field counts (for feedback); undefined for an empty slot. */
  termsOf(slot: number): TermCounts | undefined {
    if (this.slots[slot] === undefined) return undefined;
    const h = this.held;
    return { terms: h.terms, tfs: h.tfs, start: h.start[slot] as number, count: h.count[slot] as number };
  }

  /** Makes the per-upsert "seen" arrays cover term ids below `n`. */
  private growSeen(n: number): void {
    const size = Math.max(n, this.seenStamp.length * 2, 1024);
    const stamps = new Int32Array(size);
    stamps.set(this.seenStamp);
    this.seenStamp = stamps;
    const at = new Int32Array(size);
    at.set(this.seenAt);
    this.seenAt = at;
  }

  /**
   * The term id of a word (stemmed when `analyse` is set), created when new; -1 for a stop word.
   * Words map straight to ids, so a word seen before costs one look-up.
   */
  private internWord(word: string): number {
    let id = this.wordIds.get(word);
    if (id !== undefined) return id;
    const t = this.reading.analyse ? termOf(word) : word;
    if (t === '') id = -1;
    else {
      id = this.ids.get(t);
      if (id === undefined) {
        id = this.newTerm(false);
        this.ids.set(t, id);
      }
    }
    this.wordIds.set(word, id);
    return id;
  }

  /** The id of an adjacent pair of terms, created when new. */
  private internPair(a: number, b: number): number {
    let id = this.pairIds.get(a, b);
    if (id < 0) {
      id = this.newTerm(true);
      this.pairIds.set(a, b, id);
    }
    return id;
  }

  private newTerm(pair: boolean): number {
    this.store.newTerm();
    this.pairTerm.push(pair);
    return this.store.termCount - 1;
  }
}
