import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { isVectorCache, type VectorCache } from '../../../src/core/vector-cache.js';
import type { StoreSubject } from '../session-store.contract.js';

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

/** The store as a cache of tools' embeddings: exact float32 round trips, kept apart by model. */
export function vectorCacheCases(subject: StoreSubject): void {
  describe('vector cache', () => {
    it('reads back exactly what it kept, per model and text hash, on another connection too', async () => {
      const store = await subject.open();
      expect(isVectorCache(store)).toBe(true);
      const cache = store as unknown as VectorCache;
      const third = Float32Array.from([1 / 3, -2.5, 0, 1e-30]);
      await cache.writeVectors('openai:m', [
        { textHash: HASH_A, vector: third },
        { textHash: HASH_B, vector: Float32Array.from([1, 2]) },
      ]);
      const found = await cache.readVectors('openai:m', [HASH_A, 'c'.repeat(64)]);
      expect([...found.keys()]).toEqual([HASH_A]);
      expect(found.get(HASH_A)).toEqual(third);
      expect((await cache.readVectors('openai:other', [HASH_A])).size).toBe(0);
      await cache.writeVectors('openai:m', [{ textHash: HASH_A, vector: Float32Array.from([7]) }]);
      const other = (await subject.reopen(store)) as unknown as VectorCache;
      const again = await other.readVectors('openai:m', [HASH_A, HASH_B]);
      expect(again.get(HASH_A)).toEqual(Float32Array.from([7]));
      expect(again.get(HASH_B)).toEqual(Float32Array.from([1, 2]));
      expect((await other.readVectors('openai:m', [])).size).toBe(0);
    });

    it('refuses a vector that is not a non-empty Float32Array, naming its hash', async () => {
      const cache = (await subject.open()) as unknown as VectorCache;
      const bad = [{ textHash: HASH_A, vector: [1, 2] as unknown as Float32Array }];
      await expect(cache.writeVectors('openai:m', bad)).rejects.toThrow(InputError);
      await expect(cache.writeVectors('openai:m', bad)).rejects.toThrow(HASH_A);
      await expect(cache.readVectors('', [HASH_A])).rejects.toThrow(InputError);
    });
  });
}
