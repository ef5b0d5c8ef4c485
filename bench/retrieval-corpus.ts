import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MemoryBook, TaskBook } from '../src/core/session-store.js';
import { loadDataset, type RetrievalDataset } from '../src/retrieval/dataset.js';
import type { RetrievalTool } from '../src/retrieval/retrieval-tool.js';
import { BUILTIN_GROUPS, type BuiltinGroupKey } from '../src/tools/builtin/builtin-groups.js';
import { builtinTools } from '../src/tools/builtin/builtin-providers.js';
import { sourceRoot } from './source-root.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = sourceRoot(join('test', 'retrieval', 'corpus'));
const corpusDir = join(root ?? '.', 'test', 'retrieval', 'corpus');

/** The corpus's datasets, in the order their servers are laid out. */
const DATASETS = ['metatool', 'sealtools', 'bfcl', 'apibench'] as const;

/** Tools per MCP server the corpus is split into. */
const SERVER_TOOLS = 50;

/** One MCP server of the bench catalog: consecutive tools of one dataset, named `mcp/<server>/<tool>`. */
interface BenchServer {
  readonly dataset: string;
  readonly tools: readonly RetrievalTool[];
}

/** The bench's view of the corpus: the platform's own tools, the corpus as servers, the datasets. */
export interface BenchCorpus {
  readonly own: readonly RetrievalTool[];
  readonly servers: readonly BenchServer[];
  readonly datasets: readonly RetrievalDataset[];
  /** A dataset's tool name → the name it has in the catalog, per dataset. */
  readonly renamed: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

const unused = (): never => {
  throw new Error('the retrieval bench never runs a tool');
};

/** The platform's own tools (files, shell, memory, tasks, conversation) as retrieval is given them. */
function platformTools(): RetrievalTool[] {
  const memory: MemoryBook = {
    saveMemory: unused,
    recallMemories: unused,
    listMemories: unused,
    forgetMemory: unused,
  };
  const tasks: TaskBook = { createTask: unused, getTask: unused, listTasks: unused, updateTask: unused };
  const byGroup = builtinTools({ workspace: [here], memory, tasks });
  return (Object.keys(byGroup) as BuiltinGroupKey[]).flatMap((key) =>
    byGroup[key].map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      group: BUILTIN_GROUPS[key],
    })),
  );
}

/** Reads the committed corpus copy and lays it out as a catalog: own groups, then 50-tool servers. */
export function benchCorpus(): BenchCorpus {
  const datasets = DATASETS.map((name) => loadDataset(join(corpusDir, `${name}.json.gz`)));
  const servers: BenchServer[] = [];
  const renamed = new Map<string, Map<string, string>>();
  for (const data of datasets) {
    const names = new Map<string, string>();
    renamed.set(data.name, names);
    for (let i = 0; i * SERVER_TOOLS < data.tools.length; i += 1) {
      const key = `mcp/${data.name}-${i}`;
      const group = { key, own: false, purpose: '' };
      const tools = data.tools.slice(i * SERVER_TOOLS, (i + 1) * SERVER_TOOLS).map((t) => {
        const name = `${key}/${t.name}`;
        names.set(t.name, name);
        return { name, description: t.description, parameters: t.parameters, group };
      });
      servers.push({ dataset: data.name, tools });
    }
  }
  return { own: platformTools(), servers, datasets, renamed };
}

/** Every tool: the platform's own and every server's (the whole corpus). */
export function fullCatalog(corpus: BenchCorpus): RetrievalTool[] {
  return [...corpus.own, ...corpus.servers.flatMap((s) => s.tools)];
}

/** `size` tools: the platform's own, then servers picked evenly along the corpus (every dataset has some). */
export function turnCatalog(corpus: BenchCorpus, size: number): RetrievalTool[] {
  const wanted = Math.ceil((size - corpus.own.length) / SERVER_TOOLS);
  const picked: RetrievalTool[] = [...corpus.own];
  for (let j = 0; j < wanted; j += 1) {
    const server = corpus.servers[Math.floor((j * corpus.servers.length) / wanted)] as BenchServer;
    picked.push(...server.tools);
  }
  return picked.slice(0, size);
}

/**
 * Real requests for a catalog: corpus queries (both splits) whose gold tools the catalog all holds,
 * as many from each dataset (picked evenly along it), interleaved. Only timed: nothing is tuned on them.
 */
export function turnRequests(
  corpus: BenchCorpus,
  tools: readonly RetrievalTool[],
  perDataset: number,
): string[] {
  const held = new Set(tools.map((t) => t.name));
  const lists = corpus.datasets.map((data) => {
    const names = corpus.renamed.get(data.name) as ReadonlyMap<string, string>;
    const answerable = data.queries.filter((q) => q.gold.every((g) => held.has(names.get(g) ?? '')));
    const step = Math.max(1, answerable.length / perDataset);
    const out: string[] = [];
    for (let i = 0; i < answerable.length && out.length < perDataset; i += step)
      out.push((answerable[Math.floor(i)] as { query: string }).query);
    return out;
  });
  const out: string[] = [];
  for (let i = 0; i < perDataset; i += 1)
    for (const list of lists) if (i < list.length) out.push(list[i] as string);
  return out;
}

/** About `chars` characters of corpus requests one after another: a long pasted block of real text. */
export function pastedText(corpus: BenchCorpus, chars: number): string {
  const queries = corpus.datasets.flatMap((d) => d.queries.map((q) => q.query));
  let text = '';
  for (let i = 3; text.length < chars; i += 101) text += `${queries[i % queries.length]}\n`;
  return text.slice(0, chars);
}
