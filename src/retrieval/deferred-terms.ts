/**
 * A ranking pass's terms that nearly every tool holds, kept apart: they are added only to the tools
 * the pass's other terms reach (the marked tools), so a word every tool's text holds costs the few
 * tools that can rank rather than every tool. `bound` is the most an unmarked tool can score from
 * them; a cut whose last score is above it is the same as scoring every tool, and otherwise the pass
 * is completed (`Bm25fScorer.complete`) before it is read.
 */
export class DeferredTerms {
  /** The deferred terms' ids and weights (query weight × idf), in the order the pass met them. */
  readonly ids: number[] = [];
  readonly weights: number[] = [];
  /** Sum of each deferred term's highest contribution to any tool. */
  bound = 0;
  /** True when every tool's score is complete (nothing deferred, or the pass was completed). */
  whole = true;
  /** A tool is marked (scored in full) when its entry equals `round`. */
  marks = new Int32Array(0);
  round = 0;
  /** Term id → place in `ids`, valid where `placeRound` equals `round`. */
  places = new Int32Array(0);
  placeRound = new Int32Array(0);
  /**
   * Scratch: the tools newly marked by a pass's later round, the first `freshCount` entries (a typed
   * list: a pass marks up to thousands of tools, and a growing array was a tenth of a turn's garbage).
   */
  fresh = new Int32Array(0);
  freshCount = 0;

  /** Starts a pass over `capacity` slots and `terms` term ids; `defer` false scores every tool at once. */
  begin(capacity: number, terms: number, defer: boolean): void {
    // Most passes defer nothing: the lists are only cut when they hold something.
    if (this.ids.length > 0) {
      this.ids.length = 0;
      this.weights.length = 0;
    }
    this.bound = 0;
    this.whole = !defer;
    this.round += 1;
    if (this.marks.length < capacity) {
      this.marks = new Int32Array(capacity * 2);
      this.fresh = new Int32Array(capacity * 2);
    }
    this.freshCount = 0;
    if (this.places.length < terms) {
      this.places = new Int32Array(terms * 2);
      this.placeRound = new Int32Array(terms * 2);
    }
  }

  /** True for a tool whose score holds every term so far. */
  marked(slot: number): boolean {
    return this.whole || this.marks[slot] === this.round;
  }

  /** Adds a deferred term (after the ones before it). */
  push(id: number, weight: number, best: number): void {
    this.places[id] = this.ids.length;
    this.placeRound[id] = this.round;
    this.ids.push(id);
    this.weights.push(weight);
    this.bound += weight * best;
  }

  /** Place of a deferred term in `ids`, or -1 for a term not deferred. */
  placeOf(id: number): number {
    return this.placeRound[id] === this.round ? (this.places[id] as number) : -1;
  }

  /**
   * True when a cut whose last kept score is `worst` holds only marked tools: an unmarked tool scores
   * at most `bound` (the margin covers rounding in the sums).
   */
  below(worst: number): boolean {
    return this.whole || worst > this.bound * (1 + 1e-9) + Number.MIN_VALUE;
  }
}
