import { describe, expect, it } from 'vitest';
import { hasFileName, hintedFragments } from '../../src/retrieval/structural-hints.js';
import { corpusRequests } from '../support/retrieval-corpus.js';
import { expectSameOn } from './fixtures.js';

/** The pattern the scan replaced (from every boundary it ran to the end of a `[\w-]` run and back). */
const BEFORE = /\b[\w-]+\.(?:txt|md|json|ya?ml|csv|ts|js|py|toml|log|pdf|docx?)\b/;
const FILE_FRAGMENTS = ['file', 'read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep'];
const LONG = 80_000;

describe('hasFileName', () => {
  it('finds a file name in the corpus requests the former pattern found one in', () => {
    const differ = corpusRequests()
      .map((q) => q.trim().toLowerCase())
      .filter((q) => hasFileName(q) !== BEFORE.test(q));
    expect(differ).toEqual([]);
  });

  it('agrees with the former pattern on texts built from the shapes it reads', () => {
    const pieces = ['notes', 'a', '_', '-', '--', '9', '.', '..', ' ', '/', 'é', 'md', 'txt', 'yaml', 'yml'];
    const extensions = ['json', 'js', 'ts', 'tsx', 'doc', 'docx', 'docs', 'pdf', 'log', 'csv', 'py', 'toml'];
    expectSameOn([...pieces, ...extensions], 20, hasFileName, (text) => BEFORE.test(text));
  });

  it('finishes on 80,000-character runs of name characters, with the same answer', () => {
    expect(hasFileName('a-'.repeat(LONG / 2))).toBe(false);
    expect(hasFileName(`${'a-'.repeat(LONG / 2)}.md`)).toBe(true);
    expect(hasFileName(`${'-'.repeat(LONG)}.md`)).toBe(false);
    expect(hasFileName('-.'.repeat(LONG / 2))).toBe(false);
    expect(hasFileName(`${'a_'.repeat(LONG / 2)}.docs`)).toBe(false);
    expect(hasFileName(`${'9-'.repeat(LONG / 2)}.tsx`)).toBe(false);
    expect(hasFileName(`${'b-'.repeat(LONG / 2)} x.pdf`)).toBe(true);
    expect(hintedFragments('a-'.repeat(LONG / 2))).toEqual([]);
    expect(hintedFragments(`open ${'x-'.repeat(LONG / 2)}.CSV`)).toEqual(FILE_FRAGMENTS);
  });
});
