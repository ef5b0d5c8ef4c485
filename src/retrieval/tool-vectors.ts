import { createHash } from 'node:crypto';
import { headOf } from '../core/text-cut.js';
import type { CachedVector, VectorCache } from '../core/vector-cache.js';
import { type DenseQuery, type EmbeddingSource, unit } from './dense-fusion.js';
import type { RetrievalTool } from './retrieval-tool.js';
import { VectorMatrix } from './vector-matrix.js';

/**
 * The most characters one text sent to the embedding source has: embedding models take about 8,000
 * tokens, and a longer text is refused whole, which would leave the request or tool without a vector.
 */
export const MAX_EMBEDDED_TEXT = 8000;

/** How long one call to the embedding source is waited for by default: a stuck endpoint must not hold a turn. */
export const EMBED_TIMEOUT_MS = 10_000;

/** The text a tool is embedded by: its name and description (their head, see MAX_EMBEDDED_TEXT). */
function embeddingText(t: RetrievalTool): string {
  return headOf(`${t.name}: ${t.description ?? ''}`.trim(), MAX_EMBEDDED_TEXT);
}

/** The key a text's vector is cached under: the SHA-256 of the text, in hex. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Where tools' vectors are kept across restarts, and the model (`provider:model`) they are kept under. */
export interface StoredVectors {
  readonly cache: VectorCache;
  readonly model: string;
}

/** Writes vectors to the cache; one not kept is embedded again by the next process (nothing to tell). */
async function keepInCache(stored: StoredVectors, vectors: readonly CachedVector[]): Promise<void> {
  try {
    await stored.cache.writeVectors(stored.model, vectors);
  } catch {
    // Fail soft, as the embedding itself does.
  }
}

/**
 * The tools' embeddings from an optional source (the configured provider's embeddings endpoint),
 * by tool name, with the text each was made from so a changed tool is embedded again.
 */
export class ToolVectors {
  private readonly byName = new Map<string, { text: string; vector: Float32Array }>();
  /** The vectors as `dense` last packed them; dropped whenever a vector comes or goes. */
  private listed: VectorMatrix | undefined;

  constructor(
    private readonly source: EmbeddingSource | undefined,
    private readonly timeoutMs = EMBED_TIMEOUT_MS,
    private readonly stored?: StoredVectors,
  ) {}

  /** One call to the source, given up (and its signal aborted) after `timeoutMs` (no limit unless finite and positive). */
  private async ask(
    source: EmbeddingSource,
    texts: readonly string[],
  ): Promise<readonly (readonly number[])[]> {
    if (!(Number.isFinite(this.timeoutMs) && this.timeoutMs > 0)) return source(texts);
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          controller.abort();
          reject(new Error(`the embedding source did not answer within ${this.timeoutMs} ms`));
        },
        Math.min(this.timeoutMs, 2 ** 31 - 1),
      );
    });
    const answer = Promise.resolve().then(() => source(texts, controller.signal));
    // Once given up on, a later failure of the call is nobody's to handle.
    answer.catch(() => {});
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Gives a vector to each tool that has none yet (or whose text changed): from the cache when it
   * keeps one for the tool's text, else from the source in batches (kept in the cache after);
   * returns how many got one. A vector is kept only while `current(tool)` holds (the catalog may
   * change while a batch is out). A failing batch is skipped: those tools rank by words. A cache that
   * fails is passed by: the tools are embedded.
   */
  async embed(
    tools: readonly RetrievalTool[],
    current: (tool: RetrievalTool) => boolean,
    batchSize = 64,
  ): Promise<number> {
    if (!this.source) return 0;
    const missing = tools.filter((t) => this.byName.get(t.name)?.text !== embeddingText(t));
    if (missing.length === 0) return 0;
    let done = 0;
    const keep = (t: RetrievalTool, text: string, vector: Float32Array): void => {
      if (vector.length === 0 || !current(t)) return;
      this.byName.set(t.name, { text, vector });
      this.listed = undefined;
      done += 1;
    };
    const todo = this.stored ? await this.fromCache(this.stored, missing, keep) : missing;
    for (let i = 0; i < todo.length; i += batchSize) {
      const batch = todo.slice(i, i + batchSize);
      const texts = batch.map(embeddingText);
      let out: readonly (readonly number[])[];
      try {
        out = await this.ask(this.source, texts);
      } catch {
        // Fail soft: the tools of this batch keep ranking by their words.
        continue;
      }
      const made: CachedVector[] = [];
      batch.forEach((t, j) => {
        const v = out[j];
        if (!v || v.length === 0) return;
        const vector = unit(v);
        made.push({ textHash: textHash(texts[j] as string), vector });
        keep(t, texts[j] as string, vector);
      });
      if (this.stored && made.length > 0) await keepInCache(this.stored, made);
    }
    return done;
  }

  /** Hands `keep` the cached vector of each tool the cache has one for; returns the tools it has none for. */
  private async fromCache(
    stored: StoredVectors,
    tools: readonly RetrievalTool[],
    keep: (t: RetrievalTool, text: string, vector: Float32Array) => void,
  ): Promise<RetrievalTool[]> {
    const texts = tools.map(embeddingText);
    const hashes = texts.map(textHash);
    let found: ReadonlyMap<string, Float32Array>;
    try {
      found = await stored.cache.readVectors(stored.model, hashes);
    } catch {
      return [...tools];
    }
    const rest: RetrievalTool[] = [];
    tools.forEach((t, i) => {
      const vector = found.get(hashes[i] as string);
      if (vector) keep(t, texts[i] as string, vector);
      else rest.push(t);
    });
    return rest;
  }

  /** A request's embedding (of its head); undefined without a source, for an empty request, or when it fails. */
  async embedQuery(query: string): Promise<Float32Array | undefined> {
    if (!this.source || query.trim() === '') return undefined;
    try {
      const [v] = await this.ask(this.source, [headOf(query, MAX_EMBEDDED_TEXT)]);
      return v && v.length > 0 ? unit(v) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Forgets a tool's vector. */
  delete(name: string): void {
    if (this.byName.delete(name)) this.listed = undefined;
  }

  /** Forgets the vector of a tool whose text changed: it stood for what the tool did before. */
  replaced(tool: RetrievalTool): void {
    if (this.byName.size === 0) return;
    // A tool added or upserted may take a slot: the list is made again from the slots then.
    this.listed = undefined;
    const held = this.byName.get(tool.name);
    if (held && held.text !== embeddingText(tool)) this.delete(tool.name);
  }

  /** The tools' vectors by slot (`slotOf`) against the query's; undefined without both. */
  dense(
    queryVector: Float32Array | undefined,
    slotOf: (name: string) => number | undefined,
  ): DenseQuery | undefined {
    if (!queryVector || this.byName.size === 0) return undefined;
    // Packed once per change, not per turn: a turn's cost is then the product alone. Slots stay put
    // while the set of vectors does (a tool added, removed or replaced drops the packing).
    const d = queryVector.length;
    if (!this.listed || this.listed.dims !== d) {
      const rows: [number, Float32Array][] = [];
      for (const [name, { vector }] of this.byName) {
        const slot = slotOf(name);
        // A vector of another length (a model changed mid-catalog) cannot be compared: left out.
        if (slot !== undefined && vector.length === d) rows.push([slot, vector]);
      }
      this.listed = new VectorMatrix(
        rows.map(([, v]) => v),
        Int32Array.from(rows, ([slot]) => slot),
        d,
      );
    }
    const matrix = this.listed;
    const q = unit(queryVector);
    return { addTo: (into, weight, leaders) => matrix.addSimilarities(into, q, weight, leaders) };
  }
}
