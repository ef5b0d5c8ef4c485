import { describe, expect, it } from 'vitest';
import { hasCurrencyWordAmount, hasEmailAddress, valueTypeWords } from '../../src/retrieval/value-types.js';
import { corpusRequests } from '../support/retrieval-corpus.js';
import { expectSameOn } from './fixtures.js';

/** The patterns the scans replaced (each ran from every word boundary to the end of its run and back). */
const EMAIL_BEFORE = /\b[\w.+-]+@[\w-]+\.[\w.-]+\b/;
const AMOUNT_BEFORE = /\b\d[\d,.]* ?(?:dollars?|usd|eur|euros?|gbp|pounds sterling)\b/i;
const LONG = 80_000;

describe('value shapes', () => {
  it('find an address and an amount in the corpus requests the former patterns found them in', () => {
    const requests = corpusRequests();
    expect(requests.filter((q) => hasEmailAddress(q) !== EMAIL_BEFORE.test(q))).toEqual([]);
    expect(requests.filter((q) => hasCurrencyWordAmount(q) !== AMOUNT_BEFORE.test(q))).toEqual([]);
  });

  it('agree with the former patterns on texts built from the shapes they read', () => {
    const address = ['ana', 'a', 'B', '_', '9', '.', '..', '+', '-', '@', '@@', ' ', 'io', 'é', ',', '/'];
    expectSameOn(address, 16, hasEmailAddress, (text) => EMAIL_BEFORE.test(text));
    const amount = ['1', '20', ',', '.', ' ', '  ', 'x', '_', 'USD', 'usd', 'Eur', 'euro', 'euros', 'EUROS'];
    const currencies = ['dollar', 'Dollars', 'dollarz', 'gbp', 'pounds sterling', 'pounds', 'sterling'];
    expectSameOn([...amount, ...currencies], 16, hasCurrencyWordAmount, (text) => AMOUNT_BEFORE.test(text));
  });

  it('finish on 80,000-character runs of address and number characters, with the same answers', () => {
    expect(hasEmailAddress('a-'.repeat(LONG / 2))).toBe(false);
    expect(hasEmailAddress('a.'.repeat(LONG / 2))).toBe(false);
    expect(hasEmailAddress('a+'.repeat(LONG / 2))).toBe(false);
    expect(hasEmailAddress(`${'a.'.repeat(LONG / 2)}@mail.example.org`)).toBe(true);
    expect(hasEmailAddress(`x@${'-'.repeat(LONG)}.-`)).toBe(false);
    expect(hasCurrencyWordAmount('1,'.repeat(LONG / 2))).toBe(false);
    expect(hasCurrencyWordAmount('1.'.repeat(LONG / 2))).toBe(false);
    expect(hasCurrencyWordAmount(`${'1,'.repeat(LONG / 2)} USD`)).toBe(true);
    expect(valueTypeWords(`write to ${'a-'.repeat(LONG / 2)} on May 3rd`)).toEqual(['date']);
    expect(valueTypeWords(`${'9.'.repeat(LONG / 2)}9 euros`)).toEqual(['amount']);
  });
});
