/**
 * Whole numbers in a fixed order with the minimum of every aligned range, so "the first one at or
 * after `from` that is at most `limit`" costs O(log n), not a walk over the rest.
 */
export class MinTree {
  /** Leaves start at `leaves`; node i holds the minimum of nodes 2i and 2i + 1. */
  private readonly nodes: Int32Array;
  private readonly leaves: number;

  constructor(values: ArrayLike<number>) {
    let leaves = 1;
    while (leaves < values.length) leaves *= 2;
    this.leaves = leaves;
    this.nodes = new Int32Array(2 * leaves).fill(0x7fffffff);
    for (let i = 0; i < values.length; i += 1) this.nodes[leaves + i] = values[i] as number;
    for (let i = leaves - 1; i >= 1; i -= 1)
      this.nodes[i] = Math.min(this.nodes[2 * i] as number, this.nodes[2 * i + 1] as number);
  }

  /** The value at `i`. */
  at(i: number): number {
    return this.nodes[this.leaves + i] as number;
  }

  /** The first position at or after `from` whose value is at most `limit`; -1 when there is none. */
  firstAtMost(from: number, limit: number): number {
    const { nodes, leaves } = this;
    if (from >= leaves || from < 0) return -1;
    let node = leaves + from;
    if ((nodes[node] as number) <= limit) return from;
    // Up while no range to the right of the path can hold one; a right child's sibling is not ahead.
    for (;;) {
      while (node % 2 === 1) {
        node = (node - 1) / 2;
        if (node <= 1) return -1;
      }
      node += 1;
      if ((nodes[node] as number) <= limit) break;
    }
    // Down to the leftmost leaf of that range that is at most the limit.
    while (node < leaves) {
      node *= 2;
      if ((nodes[node] as number) > limit) node += 1;
    }
    return node - leaves;
  }
}
