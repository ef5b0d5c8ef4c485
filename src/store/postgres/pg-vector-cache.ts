import type { CachedVector } from '../../core/vector-cache.js';
import { requireText } from '../rows.js';
import { bytesOf, checkedHashes, checkedVectors, type VectorRow, vectorOf } from '../vector-cache-table.js';
import type { PgContext } from './pg-context.js';

/** Tools' embeddings (`VectorCache`), as the SQLite store keeps them (`vector-cache-table.ts`), in PostgreSQL. */
export function pgVectorCache(ctx: PgContext) {
  return {
    async readVectors(model: string, textHashes: readonly string[]): Promise<Map<string, Float32Array>> {
      requireText(model, 'The embedding model of cached vectors');
      const hashes = checkedHashes(textHashes);
      const out = new Map<string, Float32Array>();
      if (hashes.length === 0) return out;
      const rows = await ctx.all<VectorRow>(
        'SELECT text_hash, dimensions, vector FROM embedding_vectors WHERE model = ? AND text_hash = ANY(?::text[])',
        [model, hashes],
      );
      for (const row of rows) {
        const vector = vectorOf(row);
        if (vector) out.set(row.text_hash, vector);
      }
      return out;
    },
    writeVectors(model: string, vectors: readonly CachedVector[]): Promise<void> {
      checkedVectors(model, vectors);
      return ctx.write(async () => {
        for (const v of vectors)
          await ctx.run(
            `INSERT INTO embedding_vectors (model, text_hash, dimensions, vector, written_at)
             VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (model, text_hash) DO UPDATE SET dimensions = excluded.dimensions,
               vector = excluded.vector, written_at = excluded.written_at`,
            [model, v.textHash, v.vector.length, bytesOf(v.vector), ctx.now()],
          );
      });
    },
  };
}
