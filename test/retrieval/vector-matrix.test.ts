import { describe, expect, it } from 'vitest';
import { CatalogView } from '../../src/retrieval/catalog-view.js';
import { addDense, type EmbeddingSource, unit } from '../../src/retrieval/dense-fusion.js';
import { ScoreBuffer } from '../../src/retrieval/score-buffer.js';
import { kernelMemory } from '../../src/retrieval/similarity-kernel.js';
import { ToolCatalog } from '../../src/retrieval/tool-catalog.js';
import { EXACT_WORK, NEAREST_BY_SIGNS, VectorMatrix } from '../../src/retrieval/vector-matrix.js';

/** A reproducible stream of numbers in [-1, 1). */
function numbers(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 31 - 1;
  };
}

function randomUnit(next: () => number, d: number): Float32Array {
  return unit(Array.from({ length: d }, next));
}

/** Scores by slot from a buffer. */
function scores(buf: ScoreBuffer): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < buf.count; i += 1) {
    const slot = buf.slots[i] as number;
    out.set(slot, buf.scores[slot] as number);
  }
  return out;
}

describe('the similarity kernel', () => {
  it('is WebAssembly SIMD here (Node 20 has it), and its loops agree with plain arithmetic', () => {
    const { buffer, kernel } = kernelMemory(1 << 16);
    expect(kernel).toBeDefined();
    const floats = new Float32Array(buffer);
    const ints = new Int32Array(buffer);
    const bytes = new Uint8Array(buffer);
    const next = numbers(7);
    // Query: 8 floats at byte 0; matrix: 3 rows of 8 at byte 64; picks at 256; out at 512.
    for (let i = 0; i < 8; i += 1) floats[i] = next();
    for (let i = 0; i < 24; i += 1) floats[16 + i] = next();
    ints.set([2, 0, 1], 64);
    kernel?.dots(0, 64, 2, 256, 3, 512);
    [2, 0, 1].forEach((row, c) => {
      let want = 0;
      for (let i = 0; i < 8; i += 1) want += (floats[i] as number) * (floats[16 + row * 8 + i] as number);
      expect(floats[128 + c]).toBeCloseTo(want, 5);
    });
    // Bits: query at 1024 (2 chunks of 16 bytes), 3 rows from 1056, distances at 2048.
    for (let i = 1024; i < 1024 + 32 * 4; i += 1) bytes[i] = Math.floor((next() + 1) * 128);
    kernel?.hamming(1024, 1056, 3, 2, 2048);
    for (let row = 0; row < 3; row += 1) {
      let want = 0;
      for (let i = 0; i < 32; i += 1) {
        let x = (bytes[1024 + i] as number) ^ (bytes[1056 + row * 32 + i] as number);
        for (; x > 0; x >>= 1) want += x & 1;
      }
      expect(ints[512 + row]).toBe(want);
    }
  });
});

describe('VectorMatrix', () => {
  it('compares every tool exactly in a small pool, as the plain product does (any length of vector)', () => {
    const d = 37;
    const next = numbers(11);
    const vectors = Array.from({ length: 50 }, () => randomUnit(next, d));
    const slots = Int32Array.from(vectors.keys(), (i) => i * 3 + 1);
    const matrix = new VectorMatrix(vectors, slots, d);
    expect(matrix.bySigns).toBe(false);
    const query = randomUnit(next, d);
    const got = new ScoreBuffer();
    matrix.addSimilarities(got, query, 0.5, () => {
      throw new Error('a small pool needs no word leaders');
    });
    const packed = new Float32Array(vectors.length * d);
    vectors.forEach((v, i) => {
      packed.set(v, i * d);
    });
    const want = new ScoreBuffer();
    addDense(want, { vector: query, slots, matrix: packed }, 0.5);
    const a = scores(got);
    const b = scores(want);
    expect([...a.keys()].sort()).toEqual([...b.keys()].sort());
    for (const [slot, score] of b) expect(a.get(slot)).toBeCloseTo(score, 5);
  });

  it('in a large pool, compares by signs first: the near tools and the word leaders get their similarity', () => {
    const d = 256;
    const rows = Math.ceil(EXACT_WORK / d) + 100;
    const next = numbers(3);
    const vectors = Array.from({ length: rows }, () => randomUnit(next, d));
    const query = randomUnit(next, d);
    // A few tools close to the query (the query plus a little noise), anywhere in the pool.
    const near = [17, 1500, rows - 1];
    for (const row of near) vectors[row] = unit(Array.from(query, (x) => x + 0.02 * next()));
    const slots = Int32Array.from(vectors.keys());
    const matrix = new VectorMatrix(vectors, slots, d);
    expect(matrix.bySigns).toBe(true);
    const leaders = [5, 999, 2000];
    const got = scores(
      (() => {
        const buf = new ScoreBuffer();
        matrix.addSimilarities(buf, query, 1, () => leaders);
        return buf;
      })(),
    );
    const exact = (row: number): number => {
      let s = 0;
      for (let i = 0; i < d; i += 1)
        s += (query[i] as number) * ((vectors[row] as Float32Array)[i] as number);
      return s;
    };
    // Bytes, not floats: each similarity within a few thousandths of the exact one.
    for (const row of near) expect(got.get(row)).toBeCloseTo(exact(row), 2);
    for (const row of leaders) if (exact(row) > 0.01) expect(got.get(row)).toBeCloseTo(exact(row), 2);
    for (const [row, score] of got) expect(Math.abs(score - exact(row))).toBeLessThan(0.005);
    // Only the nearest by signs and the leaders were compared; the rest add nothing.
    expect(got.size).toBeLessThanOrEqual(NEAREST_BY_SIGNS + leaders.length);
    expect(got.size).toBeGreaterThan(near.length);
  });
});

describe('a large catalog with embeddings', () => {
  it('offers a tool by meaning alone through the fast path, beside the tools its words match', async () => {
    const d = 1024;
    const count = 1100;
    expect(count * d).toBeGreaterThan(EXACT_WORK);
    const striped = randomUnit(numbers(99), d);
    // Texts about striped horses point one way; every other text its own random way.
    const source: EmbeddingSource = async (texts) =>
      texts.map((text) => {
        if (/zebra|quagga/.test(text)) return [...striped];
        let seed = 0;
        for (const ch of text) seed = (Math.imul(seed, 31) + ch.charCodeAt(0)) >>> 0;
        return [...randomUnit(numbers(seed), d)];
      });
    const tools = [
      { name: 'quagga_lookup', description: 'Facts about an extinct equid' },
      { name: 'stripe_count', description: 'How many stripes an animal has' },
      ...Array.from({ length: count - 2 }, (_, i) => ({
        name: `tool_${i}`,
        description: `Does task number ${i} with records`,
      })),
    ];
    const catalog = new ToolCatalog(tools, { k: 5, embeddings: source });
    await catalog.embedTools(256);
    const view = new CatalogView(catalog);
    const queryVector = (await catalog.embedQuery('find zebra stripes')) as Float32Array;
    const names = view.select('find zebra stripes', { queryVector }).map((t) => t.name);
    expect(names).toContain('quagga_lookup');
    expect(names).toContain('stripe_count');
    // Without the request's vector (a session of its own), words alone cannot reach it.
    expect(new CatalogView(catalog).select('find zebra stripes', {}).map((t) => t.name)).toEqual([
      'stripe_count',
    ]);
  });
});
