import type { ToolTerms } from './tool-terms.js';

/**
 * Posting lists of the index: for each term, the tools holding it, two numbers per tool (its slot,
 * and where the term sits in that tool's term list). Loaded in bulk, the lists live in one flat
 * array, one segment per term, so a catalog of thousands of tools makes a handful of objects for the
 * garbage collector, not one per term. Tools added later go to a segment's spare room, or to a small
 * per-term overflow list once it is full; removals swap the last entry into the gap.
 */
export class PostingStore {
  private entries = new Int32Array(0);
  private start = new Int32Array(0);
  private used = new Int32Array(0);
  private room = new Int32Array(0);
  private readonly overflow: (number[] | undefined)[] = [];
  private terms = 0;

  /** Number of term ids handed out. */
  get termCount(): number {
    return this.terms;
  }

  /** Makes room for `n` terms in all without growing again. */
  reserveTerms(n: number): void {
    if (n > this.start.length) this.growTerms(n);
  }

  /** A new, empty term; returns its id. */
  newTerm(): number {
    if (this.terms >= this.start.length) this.growTerms(Math.max(1024, this.terms * 2));
    const id = this.terms;
    this.start[id] = 0;
    this.used[id] = 0;
    this.room[id] = 0;
    this.overflow[id] = undefined;
    this.terms += 1;
    return id;
  }

  /** How many tools hold the term. */
  df(id: number): number {
    return ((this.used[id] ?? 0) + (this.overflow[id]?.length ?? 0)) / 2;
  }

  /** Records that the tool in `slot` holds term `id` at position `at` of its term list. */
  add(id: number, slot: number, at: number): void {
    const used = this.used[id] as number;
    if (used + 2 <= (this.room[id] as number)) {
      const base = (this.start[id] as number) + used;
      this.entries[base] = slot;
      this.entries[base + 1] = at;
      this.used[id] = used + 2;
      return;
    }
    let extra = this.overflow[id];
    if (!extra) {
      extra = [];
      this.overflow[id] = extra;
    }
    extra.push(slot, at);
  }

  /** Forgets that the tool in `slot` holds term `id`. */
  remove(id: number, slot: number): void {
    const extra = this.overflow[id];
    if (extra) {
      for (let i = 0; i < extra.length; i += 2) {
        if (extra[i] !== slot) continue;
        extra[i] = extra[extra.length - 2] as number;
        extra[i + 1] = extra[extra.length - 1] as number;
        extra.length -= 2;
        return;
      }
    }
    const begin = this.start[id] as number;
    const end = begin + (this.used[id] as number);
    for (let i = begin; i < end; i += 2) {
      if (this.entries[i] !== slot) continue;
      this.entries[i] = this.entries[end - 2] as number;
      this.entries[i + 1] = this.entries[end - 1] as number;
      this.used[id] = (this.used[id] as number) - 2;
      return;
    }
  }

  /** Calls `visit(slot, at, k)` for each tool holding the term, k counting from 0. */
  forEach(id: number, visit: (slot: number, at: number, k: number) => void): void {
    const begin = this.start[id] as number;
    const end = begin + (this.used[id] as number);
    let k = 0;
    for (let i = begin; i < end; i += 2) visit(this.entries[i] as number, this.entries[i + 1] as number, k++);
    const extra = this.overflow[id];
    if (extra)
      for (let i = 0; i < extra.length; i += 2) visit(extra[i] as number, extra[i + 1] as number, k++);
  }

  /** All terms' flat segments (read with `begin` and `length`; replaced when the store is loaded). */
  get flat(): Int32Array {
    return this.entries;
  }

  /** Where a term's entries begin in `flat`. */
  begin(id: number): number {
    return this.start[id] as number;
  }

  /** How many numbers a term's entries take in `flat` (two per tool). */
  length(id: number): number {
    return this.used[id] as number;
  }

  /** A term's entries past its segment's room (slot, position pairs), if any. */
  extra(id: number): readonly number[] | undefined {
    return this.overflow[id];
  }

  /**
   * Lays out every term's list at once from the tools' term runs (slots below `slots`), replacing
   * what the store held. Each segment keeps a little spare room for tools added later.
   */
  load(slots: number, held: ToolTerms): void {
    const { terms, start, count } = held;
    const counts = new Int32Array(this.terms);
    for (let s = 0; s < slots; s += 1) {
      const from = start[s] as number;
      for (let i = from; i < from + (count[s] as number); i += 1) {
        const id = terms[i] as number;
        counts[id] = (counts[id] as number) + 2;
      }
    }
    let total = 0;
    for (let id = 0; id < this.terms; id += 1) {
      const c = counts[id] as number;
      this.start[id] = total;
      // Room comes in whole entries (two numbers each): about one spare entry per eight.
      this.room[id] = c + 2 * Math.max(1, c >> 4);
      this.used[id] = 0;
      this.overflow[id] = undefined;
      total += this.room[id] as number;
    }
    this.entries = new Int32Array(total);
    for (let s = 0; s < slots; s += 1) {
      const from = start[s] as number;
      for (let i = 0; i < (count[s] as number); i += 1) this.add(terms[from + i] as number, s, i);
    }
  }

  private growTerms(size: number): void {
    const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.start = grow(this.start);
    this.used = grow(this.used);
    this.room = grow(this.room);
  }
}
