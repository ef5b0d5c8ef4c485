import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { InputError } from '../core/errors.js';
import { parseUserJson } from '../core/read-json-file.js';
import type { RetrievalTool } from './retrieval-tool.js';

/** One benchmark query: its text, the tools that answer it, and its split. */
export interface BenchmarkQuery {
  readonly id: string;
  readonly query: string;
  readonly gold: readonly string[];
  readonly split: 'dev' | 'heldout';
}

/** A retrieval benchmark: a tool pool and labelled queries. */
export interface RetrievalDataset {
  readonly name: string;
  readonly tools: readonly RetrievalTool[];
  readonly queries: readonly BenchmarkQuery[];
}

/**
 * Reads a dataset file in the corpus format (gzip-compressed when its name ends in `.gz`); anything
 * unusable is an InputError naming the problem.
 */
export function loadDataset(path: string): RetrievalDataset {
  let text: string;
  try {
    const bytes = readFileSync(path);
    text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (error) {
    throw new InputError(`cannot read dataset ${path}: ${(error as Error).message}. Check the path.`, path);
  }
  const parsed = parseUserJson(text);
  if (!parsed.ok) throw new InputError(`${path} is not JSON (${parsed.problem}).`, path);
  return parseDataset(parsed.data, path);
}

/** Checks and converts a parsed dataset object. */
export function parseDataset(raw: unknown, path: string): RetrievalDataset {
  const fail = (what: string): never => {
    throw new InputError(
      `${path}: ${what}. A dataset is {"dataset", "tools": [{name, description, parameters, group}], "queries": [{id, query, gold, split}]}.`,
      path,
    );
  };
  if (!isRecord(raw)) return fail('the top level is not an object');
  if (!Array.isArray(raw.tools)) return fail('"tools" is missing or not a list');
  if (!Array.isArray(raw.queries)) return fail('"queries" is missing or not a list');
  const name = typeof raw.dataset === 'string' ? raw.dataset : path;
  const seen = new Set<string>();
  const tools: RetrievalTool[] = raw.tools.map((t: unknown, i: number) => {
    if (!isRecord(t) || typeof t.name !== 'string' || t.name === '') return fail(`tools[${i}] has no name`);
    if (seen.has(t.name)) return fail(`tool "${t.name}" is listed twice`);
    seen.add(t.name);
    const description = typeof t.description === 'string' ? t.description : '';
    const group = typeof t.group === 'string' && t.group !== '' ? t.group : undefined;
    return {
      name: t.name,
      description,
      parameters: t.parameters ?? undefined,
      ...(group ? { group: { key: group, own: false, purpose: '' } } : {}),
    };
  });
  const queries: BenchmarkQuery[] = raw.queries.map((q: unknown, i: number) => {
    if (!isRecord(q) || typeof q.query !== 'string') return fail(`queries[${i}] has no "query" text`);
    if (!Array.isArray(q.gold) || !q.gold.every((g) => typeof g === 'string')) {
      return fail(`queries[${i}] has no "gold" list of tool names`);
    }
    // Recall over no gold tool is 0/0: such a query cannot be scored, so the file is refused.
    if (q.gold.length === 0) return fail(`queries[${i}] has an empty "gold" list; name at least one tool`);
    if (q.split !== 'dev' && q.split !== 'heldout')
      return fail(`queries[${i}] has split ${JSON.stringify(q.split)}, not "dev" or "heldout"`);
    for (const g of q.gold as string[])
      if (!seen.has(g)) fail(`queries[${i}] names gold tool "${g}", which is not in "tools"`);
    return {
      id: typeof q.id === 'string' ? q.id : String(i),
      query: q.query,
      gold: q.gold as string[],
      split: q.split,
    };
  });
  return { name, tools, queries };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
