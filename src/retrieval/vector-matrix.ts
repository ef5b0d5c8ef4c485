import type { ScoreBuffer } from './score-buffer.js';
import { hasKernel, kernelMemory, type SimilarityKernel } from './similarity-kernel.js';

/**
 * Multiply-adds (rows × dimensions) up to which every tool is compared exactly each turn (4 MB of
 * floats, about 0.1–0.3 ms in WebAssembly SIMD). Past it, a turn compares signs first (see
 * `VectorMatrix`).
 */
export const EXACT_WORK = 1 << 20;
/** Tools nearest by signs that are then compared by their bytes, on the fast path. */
export const NEAREST_BY_SIGNS = 256;

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

/** The layout for `rows` rows of `rowBytes`, a query of `queryBytes`, and `bitBytes` of signs a row. */
function layout(rows: number, rowBytes: number, queryBytes: number, bitBytes: number): Layout {
  const query = 0;
  const queryBits = query + queryBytes;
  const matrix = queryBits + bitBytes;
  const bits = matrix + rows * rowBytes;
  const distances = bits + rows * bitBytes;
  const picks = distances + rows * 4 + 16;
  const out = picks + rows * 4 + 16;
  return { query, queryBits, matrix, bits, distances, picks, out, bytes: out + rows * 4 + 16 };
}

/**
 * The largest a query element is scaled to on the fast path: 13 bits, so that an int32 lane's sum of
 * products with bytes (at most 4 × 127 × 4,095 a chunk of 16) cannot overflow below 16,000 dimensions.
 */
const QUERY_TOP = 4095;

/**
 * The tools' unit vectors as one matrix in WebAssembly memory. A turn's similarities: for a small
 * matrix, every row's dot product with the query, in float32. For a large one, reading memory is
 * what costs (30 MB of floats at 7,000 tools of 1,024 dimensions), so each row is kept as its signs
 * (a bit a dimension) and as bytes (each value scaled to -127…127 by the row's largest): the bits
 * that differ from the query's signs are counted for every row (a close direction shares most
 * signs), then the `nearest` rows by that count and the word ranking's leaders get their byte row's
 * dot product with the query. The rest add nothing. Without WebAssembly SIMD every row is compared
 * in JavaScript.
 */
export class VectorMatrix {
  /** True when a turn compares signs first (a large matrix, with WebAssembly SIMD). */
  readonly bySigns: boolean;
  private readonly kernel: SimilarityKernel | undefined;
  private readonly at: Layout;
  private readonly floats: Float32Array;
  private readonly ints: Int32Array;
  /** 16-byte chunks a row takes (of floats; of bytes on the fast path), and a row's signs. */
  private readonly chunks: number;
  private readonly bitChunks: number;
  /** On the fast path: what one unit of each row's bytes is worth. */
  private readonly rowScale: Float32Array;
  /** The row of each slot (-1: none), and a stamp per row so a row is picked once a turn. */
  private readonly rowOfSlot: Int32Array;
  private readonly pickedIn: Uint32Array;
  private round = 0;
  private readonly histogram: Int32Array;
  private readonly maxSlot: number;

  /**
   * Packs `vectors` (unit length, all of `dims`); row i stands for `slots[i]`. `nearest`: the rows
   * nearest by signs compared on the fast path.
   */
  constructor(
    vectors: readonly Float32Array[],
    readonly slots: Int32Array,
    readonly dims: number,
    private readonly nearest = NEAREST_BY_SIGNS,
  ) {
    const rows = vectors.length;
    this.bySigns = hasKernel() && rows * dims > EXACT_WORK;
    this.chunks = Math.ceil(dims / (this.bySigns ? 16 : 4));
    this.bitChunks = this.bySigns ? Math.ceil(dims / 128) : 0;
    // The fast path's query is 16-bit integers: 32 bytes for a chunk of 16 row bytes.
    this.at = layout(rows, this.chunks * 16, this.chunks * (this.bySigns ? 32 : 16), this.bitChunks * 16);
    const { buffer, kernel } = kernelMemory(this.at.bytes);
    this.kernel = kernel;
    this.floats = new Float32Array(buffer);
    this.ints = new Int32Array(buffer);
    this.rowScale = new Float32Array(this.bySigns ? rows : 0);
    const bytes = new Int8Array(buffer);
    const bits = new Uint8Array(buffer);
    vectors.forEach((v, row) => {
      if (this.bySigns) {
        this.rowScale[row] = quantize(v, 127, bytes, this.at.matrix + row * this.chunks * 16);
        signBits(v, bits, this.at.bits + row * this.bitChunks * 16);
      } else this.floats.set(v, (this.at.matrix >> 2) + row * this.chunks * 4);
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

  /**
   * Adds `weight` × similarity (when positive) to `into` for the rows compared this turn; `query` is
   * of unit length and `dims` long. `leaders` (slots) are compared on the fast path too.
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
    const picks = at.picks >> 2;
    const out = at.out >> 2;
    if (!this.bySigns) {
      floats.set(query, at.query >> 2);
      for (let row = 0; row < rows; row += 1) ints[picks + row] = row;
      if (this.kernel) this.kernel.dots(at.query, at.matrix, this.chunks, at.picks, rows, at.out);
      else this.dotsInScript(rows);
      for (let row = 0; row < rows; row += 1) {
        const sim = floats[out + row] as number;
        if (sim > 0) into.add(this.slots[row] as number, weight * sim);
      }
      return;
    }
    const shorts = new Int16Array(floats.buffer, at.query, this.chunks * 16);
    const queryScale = quantize(query, QUERY_TOP, shorts, 0);
    const count = this.pickBySigns(query, leaders());
    (this.kernel as SimilarityKernel).dots8(at.query, at.matrix, this.chunks, at.picks, count, at.out);
    for (let c = 0; c < count; c += 1) {
      const row = ints[picks + c] as number;
      const sim = (ints[out + c] as number) * queryScale * (this.rowScale[row] as number);
      if (sim > 0) into.add(this.slots[row] as number, weight * sim);
    }
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
    while (limit < histogram.length - 1 && below + (histogram[limit] as number) < this.nearest) {
      below += histogram[limit] as number;
      limit += 1;
    }
    let atLimit = this.nearest - below;
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
    const width = this.chunks * 4;
    const q = at.query >> 2;
    for (let c = 0; c < count; c += 1) {
      const base = (at.matrix >> 2) + (ints[(at.picks >> 2) + c] as number) * width;
      let sum = 0;
      for (let i = 0; i < width; i += 1) sum += (floats[q + i] as number) * (floats[base + i] as number);
      floats[(at.out >> 2) + c] = sum;
    }
  }
}

/**
 * Writes `v` as whole numbers in -`top`…`top` (`v` divided by its largest magnitude's `top`th) into
 * `out` from element `at`; returns that divisor (what one unit is worth).
 */
function quantize(v: Float32Array, top: number, out: Int8Array | Int16Array, at: number): number {
  let largest = 0;
  for (let i = 0; i < v.length; i += 1) largest = Math.max(largest, Math.abs(v[i] as number));
  if (largest === 0) return 0;
  const scale = largest / top;
  for (let i = 0; i < v.length; i += 1) out[at + i] = Math.round((v[i] as number) / scale);
  return scale;
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
