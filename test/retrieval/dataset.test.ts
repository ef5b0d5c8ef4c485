import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { loadDataset } from '../../src/retrieval/dataset.js';
import { RETRIEVAL_DATASETS, retrievalDataset } from '../support/retrieval-corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'toolseam-dataset-'));
const doc = {
  dataset: 'tiny',
  tools: [{ name: 'weather_lookup', description: 'Weather for a city.' }],
  queries: [{ id: '1', query: 'rain in Oslo?', gold: ['weather_lookup'], split: 'dev' }],
};

describe('loadDataset', () => {
  it('reads a gzip-compressed file as it reads the plain one', () => {
    const plain = join(dir, 'tiny.json');
    const packed = join(dir, 'tiny.json.gz');
    writeFileSync(plain, JSON.stringify(doc));
    writeFileSync(packed, gzipSync(JSON.stringify(doc)));
    expect(loadDataset(packed)).toEqual(loadDataset(plain));
  });

  it('refuses a .gz file that is not gzip with an input error', () => {
    const bad = join(dir, 'bad.json.gz');
    writeFileSync(bad, JSON.stringify(doc));
    expect(() => loadDataset(bad)).toThrow(InputError);
  });

  it('reads the committed corpus copy whole (7,225 tools, 27,448 queries)', () => {
    const all = RETRIEVAL_DATASETS.map((name) => retrievalDataset(name));
    expect(all.map((d) => d.name)).toEqual([...RETRIEVAL_DATASETS]);
    expect(all.reduce((n, d) => n + d.tools.length, 0)).toBe(7225);
    expect(all.reduce((n, d) => n + d.queries.length, 0)).toBe(27448);
  });
});
