/**
 * Every indexed tool's distinct terms with their per-field counts, its name terms and its field
 * lengths, kept in a few shared flat arrays addressed by slot. A catalog of thousands of tools would
 * otherwise make four typed arrays per tool, and making typed arrays one by one is slow. A removed
 * tool leaves a gap; the arrays are compacted once gaps make up half of them.
 */
export class ToolTerms {
  /** Term ids, tool after tool; a tool's run starts at `start[slot]` and holds `count[slot]` ids. */
  terms = new Int32Array(1024);
  /** `fields` counts per entry of `terms`, at the same position times `fields`. */
  tfs = new Uint16Array(1024 * 4);
  /** Name-term ids, tool after tool, from `nameStart[slot]`, `nameCount[slot]` of them. */
  names = new Int32Array(256);
  /** `fields` term counts per slot. */
  lengths = new Float64Array(0);
  start = new Int32Array(0);
  count = new Int32Array(0);
  nameStart = new Int32Array(0);
  nameCount = new Int32Array(0);
  private used = 0;
  private nameUsed = 0;
  private gap = 0;
  private nameGap = 0;

  constructor(readonly fields: number) {
    this.tfs = new Uint16Array(this.terms.length * fields);
  }

  /**
   * Stores the tool in `slot`: its distinct terms (in first-seen order), their counts (`fields` per
   * term, in the same order) and its field lengths. Name terms are those counted in field 0.
   */
  set(slot: number, termList: readonly number[], counts: Uint16Array, lengths: Float64Array): void {
    const nf = this.fields;
    this.growSlots(slot + 1);
    const n = termList.length;
    this.reserve(n);
    const at = this.used;
    let names = 0;
    for (let i = 0; i < n; i += 1) {
      this.terms[at + i] = termList[i] as number;
      if ((counts[i * nf] as number) > 0) names += 1;
    }
    const tfs = this.tfs;
    for (let i = 0, j = at * nf; i < n * nf; i += 1, j += 1) tfs[j] = counts[i] as number;
    this.start[slot] = at;
    this.count[slot] = n;
    this.used += n;
    this.reserveNames(names);
    const nameAt = this.nameUsed;
    for (let i = 0, j = nameAt; i < n; i += 1)
      if ((counts[i * nf] as number) > 0) this.names[j++] = termList[i] as number;
    this.nameStart[slot] = nameAt;
    this.nameCount[slot] = names;
    this.nameUsed += names;
    this.lengths.set(lengths, slot * nf);
  }

  /** Makes room for `tools` more tools of about `perTool` terms each (a bulk load sizes once). */
  expect(tools: number, perTool: number): void {
    this.growSlots(tools);
    this.reserve(tools * perTool);
    this.reserveNames(tools * 4);
  }

  /**
   * Gives back what a bulk load reserved and did not use (`expect` guesses per tool, and room grows
   * twice what is asked): about a quarter more than is used is kept for later changes.
   */
  trim(): void {
    const keep = Math.max(1024, Math.ceil(this.used * 1.25));
    if (this.terms.length > keep * 1.5) {
      this.terms = this.terms.slice(0, keep);
      this.tfs = this.tfs.slice(0, keep * this.fields);
    }
    const keepNames = Math.max(256, Math.ceil(this.nameUsed * 1.25));
    if (this.names.length > keepNames * 1.5) this.names = this.names.slice(0, keepNames);
  }

  /** Forgets the tool in `slot` (its runs become gaps). */
  release(slot: number): void {
    this.gap += this.count[slot] as number;
    this.nameGap += this.nameCount[slot] as number;
    this.count[slot] = 0;
    this.nameCount[slot] = 0;
    for (let f = 0; f < this.fields; f += 1) this.lengths[slot * this.fields + f] = 0;
  }

  /** Length of field `f` of the tool in `slot`. */
  length(slot: number, f: number): number {
    return this.lengths[slot * this.fields + f] as number;
  }

  private growSlots(n: number): void {
    if (this.start.length >= n) return;
    const size = Math.max(n, this.start.length * 2, 64);
    const grow = (a: Int32Array): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.start = grow(this.start);
    this.count = grow(this.count);
    this.nameStart = grow(this.nameStart);
    this.nameCount = grow(this.nameCount);
    const lengths = new Float64Array(size * this.fields);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }

  /** Room for `n` more terms: when full, the live runs are copied, without gaps, to an array twice their size. */
  private reserve(n: number): void {
    if (this.used + n <= this.terms.length) return;
    const live = this.used - this.gap;
    const size = Math.max(1024, (live + n) * 2);
    const terms = new Int32Array(size);
    const tfs = new Uint16Array(size * this.fields);
    if (this.gap === 0) {
      // No gaps (a bulk load): one copy of everything.
      terms.set(this.terms.subarray(0, this.used));
      tfs.set(this.tfs.subarray(0, this.used * this.fields));
      this.terms = terms;
      this.tfs = tfs;
      return;
    }
    let at = 0;
    // Copied in order of position, so relative order (and every posting's offset) is kept.
    for (const slot of this.slotsByStart(this.start, this.count)) {
      const from = this.start[slot] as number;
      const c = this.count[slot] as number;
      terms.set(this.terms.subarray(from, from + c), at);
      tfs.set(this.tfs.subarray(from * this.fields, (from + c) * this.fields), at * this.fields);
      this.start[slot] = at;
      at += c;
    }
    this.terms = terms;
    this.tfs = tfs;
    this.used = at;
    this.gap = 0;
  }

  private reserveNames(n: number): void {
    if (this.nameUsed + n <= this.names.length) return;
    const live = this.nameUsed - this.nameGap;
    const names = new Int32Array(Math.max(256, (live + n) * 2));
    if (this.nameGap === 0) {
      names.set(this.names.subarray(0, this.nameUsed));
      this.names = names;
      return;
    }
    let at = 0;
    for (const slot of this.slotsByStart(this.nameStart, this.nameCount)) {
      const from = this.nameStart[slot] as number;
      const c = this.nameCount[slot] as number;
      names.set(this.names.subarray(from, from + c), at);
      this.nameStart[slot] = at;
      at += c;
    }
    this.names = names;
    this.nameUsed = at;
    this.nameGap = 0;
  }

  /** Slots holding at least one entry, by where their run starts. */
  private slotsByStart(start: Int32Array, count: Int32Array): number[] {
    const out: number[] = [];
    for (let s = 0; s < count.length; s += 1) if ((count[s] as number) > 0) out.push(s);
    return out.sort((a, b) => (start[a] as number) - (start[b] as number));
  }
}
