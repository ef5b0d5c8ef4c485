import { InputError } from '../core/errors.js';
import type { CachedVector } from '../core/vector-cache.js';
import { requireText } from './rows.js';
import type { StoreContext } from './store-context.js';

/** A stored vector's row. */
export interface VectorRow {
  text_hash: string;
  dimensions: number;
  vector: Buffer;
}

/** A float32 vector's bytes (the machine's order: little-endian on every platform toolseam runs on). */
export function bytesOf(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/** A stored vector, copied out of SQLite's buffer (which need not be aligned for floats). */
export function vectorOf(row: VectorRow): Float32Array | undefined {
  if (row.vector.byteLength !== row.dimensions * 4) return undefined;
  const out = new Float32Array(row.dimensions);
  new Uint8Array(out.buffer).set(row.vector);
  return out;
}

/** A list of text hashes, each a non-empty string. */
export function checkedHashes(hashes: readonly string[]): readonly string[] {
  if (!Array.isArray(hashes)) throw new InputError('The text hashes to read vectors for must be a list.');
  for (const h of hashes) requireText(h, 'A text hash');
  return hashes;
}

/** Checks a model name and the vectors to keep under it, each a non-empty Float32Array with its hash. */
export function checkedVectors(model: string, vectors: readonly CachedVector[]): void {
  requireText(model, 'The embedding model of cached vectors');
  if (!Array.isArray(vectors)) throw new InputError('The vectors to keep must be a list.');
  for (const v of vectors) {
    requireText(v?.textHash, 'A text hash');
    if (!(v.vector instanceof Float32Array) || v.vector.length === 0)
      throw new InputError(`The vector for text hash ${v.textHash} must be a non-empty Float32Array.`);
  }
}

/** The embedding vectors table: tools' embeddings by model and text hash (see `VectorCache`). */
export function vectorCacheTable(ctx: StoreContext) {
  const { db } = ctx;
  // One statement for a whole catalog: the hashes go in as one JSON list.
  const read = db.prepare(
    `SELECT text_hash, dimensions, vector FROM embedding_vectors
     WHERE model = ? AND text_hash IN (SELECT value FROM json_each(?))`,
  );
  const upsert = db.prepare(
    `INSERT INTO embedding_vectors (model, text_hash, dimensions, vector, written_at)
     VALUES (@model, @hash, @dimensions, @vector, @now)
     ON CONFLICT (model, text_hash) DO UPDATE SET dimensions = excluded.dimensions,
       vector = excluded.vector, written_at = excluded.written_at`,
  );

  return {
    readVectors(model: string, textHashes: readonly string[]): Map<string, Float32Array> {
      requireText(model, 'The embedding model of cached vectors');
      const hashes = checkedHashes(textHashes);
      const out = new Map<string, Float32Array>();
      if (hashes.length === 0) return out;
      for (const row of read.all(model, JSON.stringify(hashes)) as VectorRow[]) {
        const vector = vectorOf(row);
        if (vector) out.set(row.text_hash, vector);
      }
      return out;
    },
    writeVectors(model: string, vectors: readonly CachedVector[]): void {
      checkedVectors(model, vectors);
      ctx.write(() => {
        for (const v of vectors)
          upsert.run({
            model,
            hash: v.textHash,
            dimensions: v.vector.length,
            vector: bytesOf(v.vector),
            now: ctx.now(),
          });
      });
    },
  };
}
