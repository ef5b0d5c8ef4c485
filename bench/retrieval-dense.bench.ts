import { performance } from 'node:perf_hooks';
import { addDense, type EmbeddingSource, unit } from '../src/retrieval/dense-fusion.js';
import { ScoreBuffer } from '../src/retrieval/score-buffer.js';
import { ToolRetriever } from '../src/retrieval/tool-retriever.js';
import { benchCorpus, fullCatalog, turnRequests } from './retrieval-corpus.js';
import type { BenchFigure } from './run.js';
import { quantile } from './stats.js';

/** Dimensions of the made-up vectors: Titan v2 and Cohere v3 embed in 1,024. */
const DIMENSIONS = 1024;
/** Requests timed per dataset. */
const PER_DATASET = 150;

/** Vectors made from the text's hash: the cost of fusion, not its quality (no real embedder here). */
const madeUp: EmbeddingSource = async (texts) =>
  texts.map((text) => {
    let seed = 2166136261;
    for (let i = 0; i < text.length; i += 1) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619);
    const v = new Array<number>(DIMENSIONS);
    for (let i = 0; i < DIMENSIONS; i += 1) {
      seed = Math.imul(seed ^ (seed >>> 15), 2246822507) ^ i;
      v[i] = ((seed >>> 8) & 0xffff) / 0x8000 - 1;
    }
    return v;
  });

/** One turn as the runtime runs it: select (with the request's vector when given), then the deferred catalog. */
function turn(r: ToolRetriever, q: string, vector?: Float32Array): number {
  const start = performance.now();
  const chosen = new Set(r.select(q, vector ? { queryVector: vector } : {}).map((t) => t.name));
  r.deferredCatalog(chosen, r.lastRelevance);
  return performance.now() - start;
}

/**
 * The whole 7.2k-tool corpus as one pool: select + catalog per turn by words, and what fusing
 * embeddings adds to a turn once the vectors are in memory (the query's own embedding request aside).
 */
export async function bench(): Promise<BenchFigure[]> {
  const corpus = benchCorpus();
  const tools = fullCatalog(corpus);
  const qs = turnRequests(corpus, tools, PER_DATASET);
  const lexical = new ToolRetriever(tools);
  const fused = new ToolRetriever(tools, { embeddings: madeUp });
  await fused.embedTools(256);
  const vectors = await Promise.all(qs.map((q) => fused.embedQuery(q)));
  for (const [i, q] of qs.slice(0, 100).entries()) {
    turn(lexical, q);
    turn(fused, q, vectors[i]);
  }
  const words: number[] = [];
  const extra: number[] = [];
  const both: number[] = [];
  const wordsCpu: number[] = [];
  // Each ranking in a run of its own: the fused turns stream the whole matrix through the caches,
  // which would slow the word turns interleaved with them.
  for (const q of qs) {
    const c0 = process.cpuUsage();
    words.push(turn(lexical, q));
    const c = process.cpuUsage(c0);
    wordsCpu.push((c.user + c.system) / 1000);
  }
  for (const [i, q] of qs.entries()) {
    const f = turn(fused, q, vectors[i]);
    both.push(f);
    extra.push(f - (words[i] as number));
  }
  // The matrix-vector product alone, as a turn runs it: every tool's vector against the request's.
  const d = DIMENSIONS;
  const rows = (await madeUp(tools.map((t) => t.name))).map(unit);
  const matrix = new Float32Array(rows.length * d);
  rows.forEach((v, i) => {
    matrix.set(v, i * d);
  });
  const slots = Int32Array.from(rows.keys());
  const product: number[] = [];
  const buffer = new ScoreBuffer();
  const cpu0 = process.cpuUsage();
  for (const v of vectors.slice(0, 200)) {
    if (!v) continue;
    buffer.reset();
    const start = performance.now();
    addDense(buffer, { vector: v, slots, matrix }, 0.5);
    product.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(cpu0);
  // On a shared machine wall time includes waiting for a core; CPU time does not.
  const productCpu = (cpu.user + cpu.system) / 1000 / Math.max(1, product.length);
  for (const list of [words, wordsCpu, extra, both, product]) list.sort((a, b) => a - b);
  const p95 = quantile(words, 0.95);
  const extraP95 = quantile(extra, 0.95);
  const n = tools.length.toLocaleString('en-US');
  return [
    {
      name: `retrieval: select + catalog per turn by words, ${n} tools, p50`,
      value: quantile(words, 0.5),
      unit: 'ms',
    },
    {
      name: `retrieval: select + catalog per turn by words, ${n} tools, p95`,
      value: p95,
      unit: 'ms',
      target: '≤ 2 ms',
      ok: p95 <= 2,
    },
    {
      name: `retrieval: select + catalog per turn by words, ${n} tools, CPU time p95`,
      value: quantile(wordsCpu, 0.95),
      unit: 'ms',
    },
    {
      name: `retrieval: the same fused with ${DIMENSIONS}-d embeddings in memory, p95`,
      value: quantile(both, 0.95),
      unit: 'ms',
    },
    { name: `  the ${n} × ${d} matrix-vector product alone, p50`, value: quantile(product, 0.5), unit: 'ms' },
    {
      name: `  the ${n} × ${d} matrix-vector product alone, p95`,
      value: quantile(product, 0.95),
      unit: 'ms',
    },
    { name: `  the same, mean CPU time`, value: productCpu, unit: 'ms' },
    { name: '  what fusion adds to a turn (same request), p50', value: quantile(extra, 0.5), unit: 'ms' },
    {
      name: '  what fusion adds to a turn (same request), p95',
      value: extraP95,
      unit: 'ms',
      target: '≤ 1 ms',
      ok: extraP95 <= 1,
    },
  ];
}
