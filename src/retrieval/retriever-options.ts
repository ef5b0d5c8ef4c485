import type { EmbeddingSource } from './dense-fusion.js';
import type { RankingSettings } from './ranking-settings.js';
import type { StoredVectors } from './tool-vectors.js';

/** Full schemas offered per turn at most (core, sticky and hinted tools may add to it). */
export const DEFAULT_K = 48;

/** How a retriever is set up. */
export interface RetrieverOptions {
  /** Tools offered with full schemas per turn (48 by default). */
  readonly k?: number;
  readonly settings?: RankingSettings;
  /** Called when selection fails and every tool is offered instead (for the log). */
  readonly onFailOpen?: (error: unknown) => void;
  /** Optional embeddings, fused into the ranking once `embedTools` has run. */
  readonly embeddings?: EmbeddingSource;
  /** How long one call to `embeddings` is waited for before its texts rank by words (10 s by default; no limit unless finite and above 0). */
  readonly embedTimeoutMs?: number;
  /** Where the tools' vectors are kept across restarts (the store), and under which model; none when left out. */
  readonly vectorCache?: StoredVectors;
}

/** What one `select` call may narrow or bound. */
export interface SelectOptions {
  /** Only these tools may be offered (active groups, a host's offer); all when undefined. */
  readonly restrict?: Iterable<string>;
  /** Characters the offered schemas may take (see `schemaBudgetChars`); unbounded when undefined. */
  readonly budgetChars?: number;
  /** The request's embedding (`embedQuery`), fused with the word ranking when given. */
  readonly queryVector?: Float32Array;
}

/** One `tool_search` answer line. */
export interface SearchHit {
  readonly name: string;
  readonly description: string;
}

/** What `search` may narrow. */
export interface SearchOptions {
  /** Answers at most (20 by default). */
  readonly limit?: number;
  /** Tools this run may use; the others are left out before the limit cut. */
  readonly shown?: (name: string) => boolean;
  /** The real name behind a wire name, so a query naming a tool as the model saw it finds it. */
  readonly realName?: (name: string) => string | undefined;
  /** The request's embedding (`embedQuery`), fused with the word ranking when given. */
  readonly queryVector?: Float32Array;
}

/** Longest description a search answer carries per tool. */
export const SEARCH_DESCRIPTION_CHARS = 200;
