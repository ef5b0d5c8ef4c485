import { describe, expect, it } from 'vitest';
import { clauses } from '../../src/retrieval/clauses.js';
import { terms } from '../../src/retrieval/tokenize.js';
import { corpusRequests } from '../support/retrieval-corpus.js';
import { expectSameOn } from './fixtures.js';

/** The split the scan replaced (it backtracked over every run of spaces or stops at each position). */
const BEFORE =
  /[.!?;\n]+\s|[.!?;\n]+$|\n|,?\s+(?:and then|then|also|additionally|finally|afterwards|after that|as well as)\s+/i;
const formerly = (query: string): string[] =>
  query
    .split(BEFORE)
    .map((c) => c.trim())
    .filter((c) => terms(c).length >= 2);

const LONG = 80_000;

describe('clauses', () => {
  it('splits every corpus request as the former pattern did', () => {
    const differ = corpusRequests().filter((q) => JSON.stringify(clauses(q)) !== JSON.stringify(formerly(q)));
    expect(differ).toEqual([]);
  });

  it('splits texts built from the shapes the pattern reads as it did', () => {
    const words = ['book', 'hotel', 'Rent', 'x', 'then', 'Then', 'THEN', 'also', 'finally', 'afterwards'];
    const joins = ['and then', 'after that', 'as well as', 'additionally', 'AND  THEN', 'after'];
    const marks = [' ', '  ', '\n', '\t', '\u00a0', '.', '!', '?', ';', ',', ':', '\r\n'];
    expectSameOn([...words, ...joins, ...marks], 30, clauses, formerly);
  });

  it('finishes on 80,000-character runs of spaces, stops and line ends, with the same parts', () => {
    expect(clauses(`book hotel${' '.repeat(LONG)}rent car`)).toEqual([
      `book hotel${' '.repeat(LONG)}rent car`,
    ]);
    expect(clauses(`book hotel${'!'.repeat(LONG)}rent car`)).toEqual([
      `book hotel${'!'.repeat(LONG)}rent car`,
    ]);
    expect(clauses(`book hotel${'!?'.repeat(LONG / 2)}\nrent car`)).toEqual(['book hotel', 'rent car']);
    expect(clauses(`book hotel${'\n'.repeat(LONG)}rent car`)).toEqual(['book hotel', 'rent car']);
    expect(clauses(`book hotel${'\t'.repeat(LONG)}then rent car`)).toEqual(['book hotel', 'rent car']);
    expect(clauses(`book hotel${', '.repeat(LONG / 2)}rent car`)).toHaveLength(1);
    expect(clauses('book hotel. '.repeat(LONG / 12))).toHaveLength(Math.floor(LONG / 12));
  });
});
