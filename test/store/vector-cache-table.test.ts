import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { isVectorCache } from '../../src/core/vector-cache.js';
import { openTestStore, tempDbPath } from './store-fixtures.js';

describe('the store as a vector cache', () => {
  it('keeps float32 vectors as 4 bytes a dimension, read back exactly, per model and text hash', async () => {
    const path = tempDbPath();
    const store = openTestStore(path);
    expect(isVectorCache(store)).toBe(true);
    const third = Float32Array.from([1 / 3, -2.5, 0, 1e-30]);
    await store.writeVectors('openai:m', [
      { textHash: 'a'.repeat(64), vector: third },
      { textHash: 'b'.repeat(64), vector: Float32Array.from([1, 2]) },
    ]);
    const found = await store.readVectors('openai:m', ['a'.repeat(64), 'c'.repeat(64)]);
    expect([...found.keys()]).toEqual(['a'.repeat(64)]);
    expect(found.get('a'.repeat(64))).toEqual(third);
    // Another model's vectors are never read.
    expect((await store.readVectors('openai:other', ['a'.repeat(64)])).size).toBe(0);
    // A hash written again takes the new vector.
    await store.writeVectors('openai:m', [{ textHash: 'a'.repeat(64), vector: Float32Array.from([7]) }]);
    expect((await store.readVectors('openai:m', ['a'.repeat(64)])).get('a'.repeat(64))).toEqual(
      Float32Array.from([7]),
    );
    const raw = new Database(path, { readonly: true });
    try {
      const rows = raw
        .prepare(
          'SELECT typeof(vector) AS kind, length(vector) AS bytes FROM embedding_vectors ORDER BY text_hash',
        )
        .all();
      expect(rows).toEqual([
        { kind: 'blob', bytes: 4 },
        { kind: 'blob', bytes: 8 },
      ]);
    } finally {
      raw.close();
    }
  });

  it('refuses what is not a model, a hash or a float32 vector, naming it', async () => {
    const store = openTestStore();
    await expect(store.readVectors('', ['x'])).rejects.toThrow(/embedding model .* non-empty string/);
    await expect(
      store.writeVectors('m', [{ textHash: 'x', vector: [1, 2] as unknown as Float32Array }]),
    ).rejects.toThrow(/text hash x must be a non-empty Float32Array/);
    await expect(store.readVectors('m', [''])).rejects.toThrow(/A text hash/);
  });
});
