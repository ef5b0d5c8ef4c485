/** One embedding as a `VectorCache` keeps it: the hash of the text embedded, and its vector. */
export interface CachedVector {
  /** The SHA-256 of the text embedded, in hex (`textHash`). */
  readonly textHash: string;
  readonly vector: Float32Array;
}

/**
 * Tools' embeddings kept across restarts, under the embedding model that made them (`provider:model`)
 * and the hash of the text embedded: a tool whose text changed misses and is embedded again, nothing
 * else is, and vectors of another model are never read. The SQLite store is one.
 */
export interface VectorCache {
  /** The vectors kept under `model` for these text hashes, by hash; a hash not kept is absent. */
  readVectors(model: string, textHashes: readonly string[]): Promise<ReadonlyMap<string, Float32Array>>;
  /** Keeps `vectors` under `model`; a hash already kept takes the new vector. */
  writeVectors(model: string, vectors: readonly CachedVector[]): Promise<void>;
}

/** True when `store` keeps vectors (a store may or may not). */
export function isVectorCache(store: unknown): store is VectorCache {
  const s = store as Partial<VectorCache> | null | undefined;
  return typeof s?.readVectors === 'function' && typeof s.writeVectors === 'function';
}
