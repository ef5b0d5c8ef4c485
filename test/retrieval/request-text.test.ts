import { describe, expect, it } from 'vitest';
import { REQUEST_READ_CHARS, requestText } from '../../src/retrieval/request-text.js';
import type { RetrievalTool } from '../../src/retrieval/retrieval-tool.js';
import { ToolRetriever } from '../../src/retrieval/tool-retriever.js';
import { names, numbered, tool } from './fixtures.js';

/** A tool whose only words are its own (the fixtures' shared parameter would tie every tool in). */
function alone(name: string, description: string): RetrievalTool {
  return tool(name, description, undefined, { parameters: undefined });
}

const INVOICE = alone('invoice_send', 'Send an invoice to a customer.');
const WEATHER = alone('weather_lookup', 'Get the weather forecast for a city.');
const TOOLS = [...numbered(80), INVOICE, WEATHER];

/** Filler words that no tool holds (each a stop word or unknown), `chars` long. */
function filler(chars: number): string {
  return 'the of and to in '.repeat(Math.ceil(chars / 17)).slice(0, chars);
}

describe('requestText', () => {
  it('keeps a request up to the cap whole, and the head and tail of a longer one within it', () => {
    const short = `weather ${filler(REQUEST_READ_CHARS - 30)} thermostat`;
    expect(requestText(short)).toBe(short);
    const long = `weather ${filler(100_000)} thermostat`;
    const read = requestText(long);
    expect(read.length).toBeLessThanOrEqual(REQUEST_READ_CHARS);
    expect(read.startsWith('weather the of')).toBe(true);
    expect(read.endsWith('thermostat')).toBe(true);
    expect(read.split('\n')).toHaveLength(2);
    expect(requestText(read)).toBe(read);
  });

  it('cuts between words', () => {
    const read = requestText('abcdefgh '.repeat(5000));
    expect(new Set(read.split(/\s+/).filter((w) => w !== ''))).toEqual(new Set(['abcdefgh']));
  });
});

describe('a very long request', () => {
  it('is ranked by what it says at its two ends, not by a word in the middle of a pasted block', () => {
    const r = new ToolRetriever(TOOLS, { k: 10 });
    const pasted = `weather forecast please ${filler(50_000)} invoice ${filler(50_000)} for Oslo`;
    expect(names(r.search(pasted))).toEqual(['weather_lookup']);
  });

  it('up to the cap is read whole', () => {
    const r = new ToolRetriever(TOOLS, { k: 10 });
    const request = `weather forecast please ${filler(6_000)} invoice ${filler(6_000)} for Oslo`;
    expect(names(r.search(request)).sort()).toEqual(['invoice_send', 'weather_lookup']);
  });

  it('of 80,000 hostile characters is answered as its short form is', () => {
    const hostile: [string, string][] = [
      [`x${' '.repeat(80_000)}y weather`, 'x y weather'],
      ['a-'.repeat(40_000), 'a-a-'],
      ['a.'.repeat(40_000), 'a.a.'],
      [`${'1,'.repeat(40_000)} weather`, '1,1, weather'],
      [`weather${'\n'.repeat(80_000)}Oslo`, 'weather\nOslo'],
    ];
    for (const [long, short] of hostile) {
      const picked = names(new ToolRetriever(TOOLS, { k: 10 }).select(long));
      expect(picked, short).toEqual(names(new ToolRetriever(TOOLS, { k: 10 }).select(short)));
      expect(names(new ToolRetriever(TOOLS).search(long)), short).toEqual(
        names(new ToolRetriever(TOOLS).search(short)),
      );
    }
  });
});
