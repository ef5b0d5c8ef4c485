import type { ScoreBuffer } from './score-buffer.js';
import { kernelMemory, type SimilarityKernel } from './similarity-kernel.js';

/**
 * Multiply-adds (rows × dimensions) up to which every tool is compared exactly each turn: about
 * 0.1 ms in WebAssembly SIMD. Past it, a turn compares signs first (see `VectorMatrix`).
 */
export const EXACT_WORK = 1 << 20;
/** Tools nearest by signs that are then compared exactly, on the fast path. */
export const NEAREST_BY_SIGNS = 384;

/** Where each part of the matrix lives in WebAssembly memory (byte offsets, 16-byte aligned). */
interface Layout {
  readonly query: number;
  readonly queryBits: number;
  readonly matrix: number;
  readonly bits: number;
  readonly distances: number;
  readonly picks: number;
  readonly out: number;
  readonly bytes: number;
}

function layout(rows: number, floatChunks: number, bitChunks: number): Layout {
  const query = 0;
  const queryBits = query + floatChunks * 16;
  const matrix = queryBits + bitChunks * 16;
  const bits = matrix + rows * floatChunks * 16;
  const distances = bits + rows * bitChunks * 16;
  const picks = distances + rows * 4 + 16;
  const out = picks + rows * 4 + 16;
  return { query, queryBits, matrix, bits, distances, picks, out, bytes: out + rows * 4 + 16 };
}

/**
 * The tools' unit vectors as one matrix in WebAssembly memory, with each vector's signs as bits. A
 * turn's similarities: for a small matrix, every row's dot product with the query; for a large one,
 * the bits that differ from the query's signs for every row (a few bytes a tool instead of kilobytes:
 * a close direction shares most signs), then exact dot products for the `NEAREST_BY_SIGNS` rows
 * closest by that count and for the word ranking's leaders. The rest add nothing. Without
 * WebAssembly SIMD every row is compared in JavaScript.
 */
export class VectorMatrix {
  private readonly kernel: SimilarityKernel | undefined;
  private readonly at: Layout;
  private readonly floats: Float32Array;
  private readonly ints: Int32Array;
  private readonly floatChunks: number;
  private readonly bitChunks: number;
  /** The row of each slot (-1: none), and a stamp per row so a row is picked once a turn. */
  private readonly rowOfSlot: Int32Array;
  private readonly pickedIn: Uint32Array;
  private round = 0;
  private readonly histogram: Int32Array;
  private readonly maxSlot: number;

  /** Packs `vectors` (unit length, all of `dims`); row i stands for `slots[i]`. */
  constructor(
    vectors: readonly Float32Array[],
    readonly slots: Int32Array,
    readonly dims: number,
  ) {
    const rows = vectors.length;
    this.floatChunks = Math.ceil(dims / 4);
    this.bitChunks = Math.ceil(dims / 128);
    this.at = layout(rows, this.floatChunks, this.bitChunks);
    const { buffer, kernel } = kernelMemory(this.at.bytes);
    this.kernel = kernel;
    this.floats = new Float32Array(buffer);
    this.ints = new Int32Array(buffer);
    const bytes = new Uint8Array(buffer);
    vectors.forEach((v, row) => {
      this.floats.set(v, (this.at.matrix >> 2) + row * this.floatChunks * 4);
      signBits(v, bytes, this.at.bits + row * this.bitChunks * 16);
    });
    this.maxSlot = slots.reduce((max, s) => Math.max(max, s), -1);
    this.rowOfSlot = new Int32Array(this.maxSlot + 1).fill(-1);
    slots.forEach((slot, row) => {
      this.rowOfSlot[slot] = row;
    });
    this.pickedIn = new Uint32Array(rows);
    this.histogram = new Int32Array(this.bitChunks * 128 + 1);
  }

  /** Number of rows (tools with a vector). */
  get rows(): number {
    return this.slots.length;
  }

  /** True when a turn compares signs first (a large matrix, with WebAssembly SIMD). */
  get bySigns(): boolean {
    return this.kernel !== undefined && this.rows * this.dims > EXACT_WORK;
  }

  /**
   * Adds `weight` × similarity (when positive) to `into` for the rows compared this turn; `query` is
   * of unit length and `dims` long. `leaders` (slots) are compared exactly on the fast path too.
   */
  addSimilarities(
    into: ScoreBuffer,
    query: Float32Array,
    weight: number,
    leaders: () => Iterable<number>,
  ): void {
    const rows = this.rows;
    if (rows === 0 || query.length !== this.dims) return;
    into.ensure(this.maxSlot + 1);
    const { at, floats, ints } = this;
    floats.set(query, at.query >> 2);
    const count = this.bySigns ? this.pickBySigns(query, leaders()) : this.pickAll();
    if (this.kernel) this.kernel.dots(at.query, at.matrix, this.floatChunks, at.picks, count, at.out);
    else this.dotsInScript(count);
    const picks = at.picks >> 2;
    const out = at.out >> 2;
    for (let c = 0; c < count; c += 1) {
      const sim = floats[out + c] as number;
      if (sim > 0) into.add(this.slots[ints[picks + c] as number] as number, weight * sim);
    }
  }

  /** Every row, in order. */
  private pickAll(): number {
    const picks = this.at.picks >> 2;
    for (let row = 0; row < this.rows; row += 1) this.ints[picks + row] = row;
    return this.rows;
  }

  /** The rows nearest the query by signs, then the leaders' rows; returns how many were picked. */
  private pickBySigns(query: Float32Array, leaders: Iterable<number>): number {
    const { at, ints, rows, histogram, pickedIn, rowOfSlot } = this;
    signBits(query, new Uint8Array(this.floats.buffer), at.queryBits, this.bitChunks * 16);
    (this.kernel as SimilarityKernel).hamming(at.queryBits, at.bits, rows, this.bitChunks, at.distances);
    const distances = at.distances >> 2;
    histogram.fill(0);
    for (let row = 0; row < rows; row += 1) {
      const d = ints[distances + row] as number;
      histogram[d] = (histogram[d] as number) + 1;
    }
    // The distance at which the nearest NEAREST_BY_SIGNS rows are reached (rows at it fill what is left).
    let limit = 0;
    let below = 0;
    while (limit < histogram.length - 1 && below + (histogram[limit] as number) < NEAREST_BY_SIGNS) {
      below += histogram[limit] as number;
      limit += 1;
    }
    let atLimit = NEAREST_BY_SIGNS - below;
    this.round += 1;
    if (this.round === 0xffffffff) {
      pickedIn.fill(0);
      this.round = 1;
    }
    const picks = at.picks >> 2;
    let count = 0;
    for (let row = 0; row < rows; row += 1) {
      const d = ints[distances + row] as number;
      if (d < limit || (d === limit && atLimit-- > 0)) {
        pickedIn[row] = this.round;
        ints[picks + count++] = row;
      }
    }
    for (const slot of leaders) {
      const row = slot < rowOfSlot.length ? (rowOfSlot[slot] as number) : -1;
      if (row >= 0 && pickedIn[row] !== this.round) {
        pickedIn[row] = this.round;
        ints[picks + count++] = row;
      }
    }
    return count;
  }

  /** The kernel's `dots`, in JavaScript (an engine without WebAssembly SIMD). */
  private dotsInScript(count: number): void {
    const { at, floats, ints } = this;
    const width = this.floatChunks * 4;
    const q = at.query >> 2;
    for (let c = 0; c < count; c += 1) {
      const base = (at.matrix >> 2) + (ints[(at.picks >> 2) + c] as number) * width;
      let sum = 0;
      for (let i = 0; i < width; i += 1) sum += (floats[q + i] as number) * (floats[base + i] as number);
      floats[(at.out >> 2) + c] = sum;
    }
  }
}

/** Writes a vector's signs (bit set: above zero) as bits from byte `at`, zeroing `clear` bytes first. */
function signBits(v: Float32Array, bytes: Uint8Array, at: number, clear = 0): void {
  if (clear > 0) bytes.fill(0, at, at + clear);
  for (let i = 0; i < v.length; i += 1)
    if ((v[i] as number) > 0) {
      const byte = at + (i >> 3);
      bytes[byte] = (bytes[byte] as number) | (1 << (i & 7));
    }
}
