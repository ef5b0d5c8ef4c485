import type { ScoreBuffer } from './score-buffer.js';

/**
 * Turns texts into vectors, e.g. the configured provider's embeddings endpoint. Optional: ranking
 * works without one, and fuses its similarities in when a host supplies it. `signal` aborts once
 * the retriever stopped waiting (see `RetrieverOptions.embedTimeoutMs`).
 */
export type EmbeddingSource = (
  texts: readonly string[],
  signal?: AbortSignal,
) => Promise<readonly (readonly number[])[]>;

/**
 * A request's embedding against the tools' embeddings: adds `weight` × cosine similarity (when
 * positive) to the score of each tool it compares in `into`, whose best word match was scaled to 1,
 * so a tool no word matched can still rank on meaning alone. A large pool compares the tools nearest
 * by a cheap measure and `leaders` (the word ranking's best slots, asked for only then) exactly; see
 * `VectorMatrix`.
 */
export interface DenseQuery {
  addTo(into: ScoreBuffer, weight: number, leaders: () => Iterable<number>): void;
}

/** The tools' unit vectors as one matrix (row i is the tool in index slot `slots[i]`): see `addDense`. */
export interface DenseRows {
  readonly vector: Float32Array;
  readonly slots: Int32Array;
  readonly matrix: Float32Array;
}

/** The vector scaled to length 1 (all zeros stays so), so similarity is one dot product per tool. */
export function unit(v: readonly number[] | Float32Array): Float32Array {
  const out = Float32Array.from(v);
  let norm = 0;
  for (let i = 0; i < out.length; i += 1) norm += (out[i] as number) ** 2;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < out.length; i += 1) out[i] = (out[i] as number) * scale;
  }
  return out;
}

/** Cosine similarity; 0 when either vector is all zeros or their lengths differ. */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Adds `weight` × cosine similarity (the dot product of unit vectors; when positive) to every tool's
 * score in `into`, in plain JavaScript: the exact product the fast path (`VectorMatrix`) is measured
 * against.
 */
export function addDense(into: ScoreBuffer, dense: DenseRows, weight: number): void {
  const { vector: q, slots, matrix } = dense;
  const d = q.length;
  if (slots.length === 0 || matrix.length !== slots.length * d) return;
  into.ensure(Math.max(...slots) + 1);
  for (let row = 0; row < slots.length; row += 1) {
    const base = row * d;
    // Four sums side by side: the adds need not wait on each other (about twice as fast in V8).
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < d; i += 4) {
      const at = base + i;
      s0 += (q[i] as number) * (matrix[at] as number);
      s1 += (q[i + 1] as number) * (matrix[at + 1] as number);
      s2 += (q[i + 2] as number) * (matrix[at + 2] as number);
      s3 += (q[i + 3] as number) * (matrix[at + 3] as number);
    }
    for (; i < d; i += 1) s0 += (q[i] as number) * (matrix[base + i] as number);
    const sim = s0 + s1 + s2 + s3;
    if (sim > 0) into.add(slots[row] as number, weight * sim);
  }
}
