/**
 * Scores by slot, reusable across queries: only the touched slots are cleared, and nothing is
 * allocated per query once the buffer has grown to the catalog (a ranking makes several passes).
 */
export class ScoreBuffer {
  scores = new Float64Array(0);
  private seen = new Uint8Array(0);
  /** Slots with a score, in first-touched order: the first `count` entries. */
  slots = new Int32Array(0);
  count = 0;

  /** Grows the buffer to hold `n` slots, keeping what it holds. */
  ensure(n: number): void {
    if (this.scores.length >= n) return;
    const size = Math.max(n, this.scores.length * 2, 64);
    const scores = new Float64Array(size);
    scores.set(this.scores);
    const seen = new Uint8Array(size);
    seen.set(this.seen);
    const slots = new Int32Array(size);
    slots.set(this.slots);
    this.scores = scores;
    this.seen = seen;
    this.slots = slots;
  }

  /** Adds to a slot's score. */
  add(slot: number, value: number): void {
    if (this.seen[slot] === 0) {
      this.seen[slot] = 1;
      this.slots[this.count] = slot;
      this.count += 1;
    }
    this.scores[slot] = (this.scores[slot] as number) + value;
  }

  /** True when a slot has been touched since the last reset. */
  has(slot: number): boolean {
    return this.seen[slot] === 1;
  }

  /** Clears every touched slot. */
  reset(): void {
    for (let i = 0; i < this.count; i += 1) {
      const s = this.slots[i] as number;
      this.scores[s] = 0;
      this.seen[s] = 0;
    }
    this.count = 0;
  }
}
