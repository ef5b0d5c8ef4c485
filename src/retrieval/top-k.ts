import type { ScoreBuffer } from './score-buffer.js';

/** One ranked tool: its index slot and score. */
export interface Ranked {
  readonly slot: number;
  readonly score: number;
}

/**
 * Picks the best few of the scored slots of a buffer: one pass over them through a bounded heap
 * whose root is the worst kept so far, so a slot below it costs one comparison. Reused across
 * queries (its arrays only grow). Order: score, then the tie-break (negative: `a` first).
 */
export class TopK {
  private slots = new Int32Array(64);
  private scores = new Float64Array(64);
  private readonly order: number[] = [];
  /**
   * Orders positions of the kept entries: score, then the tie-break. It answers -1, 0 or 1, not a
   * difference of scores: a fractional answer is boxed on every call from the sort.
   */
  private readonly byScore = (a: number, b: number): number => {
    const x = this.scores[a] as number;
    const y = this.scores[b] as number;
    return x > y ? -1 : x < y ? 1 : this.tie(this.slots[a] as number, this.slots[b] as number);
  };
  private size = 0;
  private cap = 0;

  constructor(private readonly tie: (a: number, b: number) => number) {}

  /** The `n` best slots of `buf` whose score is above zero, best first. */
  select(buf: ScoreBuffer, n: number): Ranked[] {
    return this.best(this.gather(buf, n));
  }

  /**
   * Keeps the `n` best slots of `buf` whose score is above zero and returns how many were kept;
   * `rescore` may then change their scores before `best` reads them out.
   */
  gather(buf: ScoreBuffer, n: number, divisor = 1, plus?: ScoreBuffer): number {
    this.begin(Math.min(n, buf.count + (plus?.count ?? 0)));
    const all = buf.scores;
    const extra = plus?.scores;
    const touched = buf.slots;
    for (let i = 0; i < buf.count; i += 1) {
      const slot = touched[i] as number;
      this.consider(slot, (all[slot] as number) / divisor + (extra ? (extra[slot] as number) : 0));
    }
    // Slots only `plus` scores (an embedding's neighbours no word matched) are read too.
    if (plus) {
      for (let i = 0; i < plus.count; i += 1) {
        const slot = plus.slots[i] as number;
        if (!buf.has(slot)) this.consider(slot, plus.scores[slot] as number);
      }
    }
    return this.size;
  }

  /** Starts a selection of at most `cap` slots (then `consider` each candidate). */
  begin(cap: number): void {
    this.size = 0;
    this.cap = Math.max(0, cap);
    if (this.slots.length < this.cap) {
      this.slots = new Int32Array(this.cap * 2);
      this.scores = new Float64Array(this.cap * 2);
    }
  }

  /** Offers one candidate; kept when its score is above zero and among the best so far. */
  consider(slot: number, score: number): void {
    if (!(score > 0)) return;
    if (this.size < this.cap) this.push(slot, score);
    else if (this.size > 0) {
      // The heap is full: most slots fall below its worst and cost this one comparison.
      const floor = this.scores[0] as number;
      if (score < floor || (score === floor && this.tie(slot, this.slots[0] as number) >= 0)) return;
      this.replaceRoot(slot, score);
    }
  }

  /** The lowest score kept (0 when nothing is): what a slot must beat to be kept once the selection is full. */
  worst(): number {
    return this.size > 0 ? (this.scores[0] as number) : 0;
  }

  /** Multiplies the score of each kept slot by `factor(slot)` (the heap order is no longer kept). */
  rescore(factor: (slot: number) => number): void {
    for (let i = 0; i < this.size; i += 1)
      this.scores[i] = (this.scores[i] as number) * factor(this.slots[i] as number);
  }

  /** The kept slots in no order (a view, valid until the next selection): when which, not the order, matters. */
  kept(): Int32Array {
    return this.slots.subarray(0, this.size);
  }

  /** The best `limit` of the kept slots, best first. */
  best(limit = this.size): Ranked[] {
    const { slots, scores, order } = this;
    // A plain array of small integers: a typed array sorted with a comparator is copied to boxed
    // numbers first.
    order.length = this.size;
    for (let i = 0; i < this.size; i += 1) order[i] = i;
    order.sort(this.byScore);
    const n = Math.min(limit, this.size);
    const out: Ranked[] = new Array(n);
    for (let i = 0; i < n; i += 1) {
      const at = order[i] as number;
      out[i] = { slot: slots[at] as number, score: scores[at] as number };
    }
    return out;
  }

  /** True when (a, aScore) ranks above (b, bScore). */
  private above(a: number, aScore: number, b: number, bScore: number): boolean {
    return aScore > bScore || (aScore === bScore && this.tie(a, b) < 0);
  }

  private push(slot: number, score: number): void {
    const { slots, scores } = this;
    let i = this.size;
    this.size += 1;
    // Sift up: a parent that ranks above the newcomer moves down (the root stays the worst).
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.above(slots[p] as number, scores[p] as number, slot, score)) break;
      slots[i] = slots[p] as number;
      scores[i] = scores[p] as number;
      i = p;
    }
    slots[i] = slot;
    scores[i] = score;
  }

  /** Puts (slot, score) in the root's place and sifts it down below every worse child. */
  private replaceRoot(slot: number, score: number): void {
    const { slots, scores, size } = this;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      // The worse child: the one the other ranks above.
      const c =
        r < size &&
        this.above(slots[l] as number, scores[l] as number, slots[r] as number, scores[r] as number)
          ? r
          : l;
      if (!this.above(slot, score, slots[c] as number, scores[c] as number)) break;
      slots[i] = slots[c] as number;
      scores[i] = scores[c] as number;
      i = c;
    }
    slots[i] = slot;
    scores[i] = score;
  }
}
