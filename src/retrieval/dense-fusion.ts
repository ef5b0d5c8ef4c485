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

/** A query's vector and the tools' vectors, by index slot; all of unit length (see `unit`). */
export interface DenseQuery {
  readonly vector: Float32Array;
  readonly tools: Iterable<readonly [slot: number, vector: Float32Array]>;
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
 * Adds `weight` × cosine similarity (the dot product of unit vectors; when positive) to each tool's score in `into` (whose best
 * lexical match was scaled to 1). A tool no word matched can still rank on meaning alone.
 */
export function addDense(into: ScoreBuffer, dense: DenseQuery, weight: number): void {
  const q = dense.vector;
  const n = q.length;
  for (const [slot, vector] of dense.tools) {
    if (vector.length !== n) continue;
    let sim = 0;
    for (let i = 0; i < n; i += 1) sim += (q[i] as number) * (vector[i] as number);
    if (sim > 0) {
      into.ensure(slot + 1);
      into.add(slot, weight * sim);
    }
  }
}
