/**
 * A hash map from a pair of small non-negative integers to an integer (open addressing, linear
 * probing). The index keeps one entry per adjacent word pair it has seen — tens of thousands — and
 * a Map keyed by a combined number would hash a heap-allocated double for each.
 */
export class PairTable {
  private first = new Int32Array(1024).fill(-1);
  private second = new Int32Array(1024);
  private values = new Int32Array(1024);
  private count = 0;

  /** The value stored for (a, b), or -1. */
  get(a: number, b: number): number {
    const mask = this.first.length - 1;
    for (let i = hash(a, b) & mask; ; i = (i + 1) & mask) {
      const f = this.first[i] as number;
      if (f === -1) return -1;
      if (f === a && this.second[i] === b) return this.values[i] as number;
    }
  }

  /** Stores a value for (a, b) (replacing any). */
  set(a: number, b: number, value: number): void {
    if ((this.count + 1) * 2 > this.first.length) this.grow();
    const mask = this.first.length - 1;
    for (let i = hash(a, b) & mask; ; i = (i + 1) & mask) {
      const f = this.first[i] as number;
      if (f === -1) {
        this.first[i] = a;
        this.second[i] = b;
        this.values[i] = value;
        this.count += 1;
        return;
      }
      if (f === a && this.second[i] === b) {
        this.values[i] = value;
        return;
      }
    }
  }

  /** Number of pairs stored. */
  get size(): number {
    return this.count;
  }

  /** Makes room for `n` pairs in all without growing again. */
  reserve(n: number): void {
    let size = this.first.length;
    while (n * 2 > size) size *= 2;
    if (size > this.first.length) this.grow(size);
  }

  private grow(size = this.first.length * 2): void {
    const { first, second, values } = this;
    this.first = new Int32Array(size).fill(-1);
    this.second = new Int32Array(size);
    this.values = new Int32Array(size);
    this.count = 0;
    for (let i = 0; i < first.length; i += 1) {
      const f = first[i] as number;
      if (f !== -1) this.set(f, second[i] as number, values[i] as number);
    }
  }
}

function hash(a: number, b: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca6b)) >>> 0;
}
