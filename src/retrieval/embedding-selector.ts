import type { EmbeddingSource } from './dense-fusion.js';
import { ToolCatalog } from './tool-catalog.js';
import type { ToolSelector } from './tool-selector.js';
import { EMBED_TIMEOUT_MS, type StoredVectors } from './tool-vectors.js';

/** How `embeddingSelector` waits for its source and says when it fell back. */
export interface EmbeddingSelectorOptions {
  /** How long one call to the source is waited for before its texts rank by words (10 s by default). */
  readonly embedTimeoutMs?: number;
  /** Called once for a turn whose embeddings failed (that turn ranks by words alone). */
  readonly onFallback?: (error: unknown) => void;
  /** The embedding source's name for the turn's label, e.g. "openai:text-embedding-3-small". */
  readonly label?: string;
  /** Where the tools' vectors are kept across restarts, under the source's `provider:model`. */
  readonly vectorCache?: StoredVectors;
}

/**
 * Ranks by words and by meaning: before each turn's selection the tools not embedded yet and the
 * request are embedded by `embeddings`, and their similarity is fused into the word ranking, so a tool
 * no word of the request matches can still be offered. A source that fails or is slow leaves that
 * turn's ranking by words, with one `onFallback` call.
 */
export function embeddingSelector(
  embeddings: EmbeddingSource,
  options: EmbeddingSelectorOptions = {},
): ToolSelector {
  // The failures of the calls made for the turn under way (sessions side by side may share one).
  let failures: unknown[] = [];
  const watched: EmbeddingSource = async (texts, signal) => {
    try {
      return await embeddings(texts, signal);
    } catch (error) {
      failures.push(error);
      throw error;
    }
  };
  const fallback = 'words (embeddings failed this turn)';
  let last = 'words (no turn yet)';
  const fused = `words + embeddings${options.label ? ` (${options.label})` : ''}`;
  return {
    catalog: (tools, k) =>
      new ToolCatalog(tools, {
        ...(k === undefined ? {} : { k }),
        embeddings: watched,
        ...(options.embedTimeoutMs === undefined ? {} : { embedTimeoutMs: options.embedTimeoutMs }),
        ...(options.vectorCache === undefined ? {} : { vectorCache: options.vectorCache }),
      }),
    async select(view, query, selectOptions) {
      failures = [];
      // The tools are embedded within the turn's deadline; what is left goes on in the background
      // (sessions share it) and ranks by words until it lands.
      await withinDeadline(view.embedTools(), options.embedTimeoutMs ?? EMBED_TIMEOUT_MS);
      const queryVector = await view.embedQuery(query);
      const failed = failures[0];
      failures = [];
      // A timed-out call is not seen by `watched` (it is still out): a missing vector says it failed.
      if (failed !== undefined || (queryVector === undefined && query.trim() !== ''))
        options.onFallback?.(failed ?? new Error('the request was not embedded in time'));
      const tools = view.select(query, queryVector ? { ...selectOptions, queryVector } : selectOptions);
      last = queryVector ? fused : fallback;
      return { tools, relevance: new Map(view.lastRelevance), ranking: last };
    },
    lastRanking: () => last,
  };
}

/** Waits for `work` at most `ms` (no limit unless finite and above 0); a failure of `work` is not waited on. */
async function withinDeadline(work: Promise<unknown>, ms: number): Promise<void> {
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  if (!(Number.isFinite(ms) && ms > 0)) return settled;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.min(ms, 2 ** 31 - 1));
  });
  try {
    await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}
