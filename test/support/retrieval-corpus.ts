import { resolve } from 'node:path';
import { loadDataset, type RetrievalDataset } from '../../src/retrieval/dataset.js';

/** The datasets of the committed retrieval corpus copy (`test/retrieval/corpus/`). */
export const RETRIEVAL_DATASETS = ['metatool', 'sealtools', 'bfcl', 'apibench'] as const;

const dir = resolve(import.meta.dirname, '..', 'retrieval', 'corpus');
const loaded = new Map<string, RetrievalDataset>();

/** One dataset of the committed copy (read once per test file). */
export function retrievalDataset(name: (typeof RETRIEVAL_DATASETS)[number]): RetrievalDataset {
  let data = loaded.get(name);
  if (!data) {
    data = loadDataset(resolve(dir, `${name}.json.gz`));
    loaded.set(name, data);
  }
  return data;
}

/** Every query text of the corpus: real requests, for checks that must hold on ordinary text. */
export function corpusRequests(): string[] {
  return RETRIEVAL_DATASETS.flatMap((name) => retrievalDataset(name).queries.map((q) => q.query));
}
