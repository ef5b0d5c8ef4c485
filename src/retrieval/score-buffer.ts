/** Scores by slot, reusable across queries: only the touched slots are cleared. */
export class ScoreBuffer {
  scores = new Float64Array(0);
  private seen = new Uint8Array(0);
  /** Slots with a score, in first-touched order. */
  readonly touched: number[] = [];

  /** Grows the buffer to hold `n` slots, keeping what it holds. */
  ensure(n: number): void {
    if (this.scores.length >= n) return;
    const size = Math.max(n, this.scores.length * 2, 64);
    const scores = new Float64Array(size);
    scores.set(this.scores);
    const seen = new Uint8Array(size);
    seen.set(this.seen);
    this.scores = scores;
    this.seen = seen;
  }

  /** Adds to a slot's score. */
  add(slot: number, value: number): void {
    if (this.seen[slot] === 0) {
      this.seen[slot] = 1;
      this.touched.push(slot);
    }
    this.scores[slot] = (this.scores[slot] ?? 0) + value;
  }

  /** Clears every touched slot. */
  reset(): void {
    for (const s of this.touched) {
      this.scores[s] = 0;
      this.seen[s] = 0;
    }
    this.touched.length = 0;
  }
}
