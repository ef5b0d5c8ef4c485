import { describe, expect, it } from 'vitest';
import { capitalisedWords } from '../../src/retrieval/capitalised-words.js';
import { corpusRequests } from '../support/retrieval-corpus.js';
import { expectSameOn } from './fixtures.js';

/** The pattern the scan replaced (its lookbehind rescanned a run of white space at every position). */
const BEFORE = /(?<=[^\s.!?:"'(]\s+)[A-Z][a-z]+/g;
const formerly = (text: string): string[] => text.match(BEFORE) ?? [];

const LONG = 80_000;

describe('capitalisedWords', () => {
  it('finds what the former pattern found in every corpus request', () => {
    const differ = corpusRequests().filter(
      (q) => JSON.stringify(capitalisedWords(q)) !== JSON.stringify(formerly(q)),
    );
    expect(differ).toEqual([]);
  });

  it('finds what the former pattern found in texts built from the shapes it reads', () => {
    const pieces = ['Paris', 'Ab', 'A', 'aB', 'x', 'É', 'Zz', '9', ' ', '  ', '\n', '\t', '\u00a0', '\u3000'];
    const marks = ['.', '!', '?', ':', '"', "'", '(', ',', ';', '-'];
    expectSameOn([...pieces, ...marks], 30, capitalisedWords, formerly);
  });

  it('reads names inside a sentence, not a sentence’s first word', () => {
    expect(capitalisedWords('Flights to Paris. Then Rome, or "Oslo" (Bergen)')).toEqual(['Paris', 'Rome']);
    expect(capitalisedWords('weather in\tBerlin and\u00a0Oslo')).toEqual(['Berlin', 'Oslo']);
  });

  it('finishes on 80,000-character runs of white space, with the same words', () => {
    expect(capitalisedWords(`x${' '.repeat(LONG)}Yes`)).toEqual(['Yes']);
    expect(capitalisedWords(`.${' '.repeat(LONG)}Not`)).toEqual([]);
    expect(capitalisedWords(`a${'\n'.repeat(LONG)}Name`)).toEqual(['Name']);
    expect(capitalisedWords(`a${'\t \n'.repeat(LONG / 4)}Tab`)).toEqual(['Tab']);
    expect(capitalisedWords(`a${'\u00a0'.repeat(LONG)}Nbsp`)).toEqual(['Nbsp']);
    expect(capitalisedWords(' '.repeat(LONG))).toEqual([]);
    expect(capitalisedWords('Ab '.repeat(LONG / 4))).toHaveLength(LONG / 4 - 1);
  });
});
