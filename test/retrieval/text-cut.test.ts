import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/retrieval/catalog.js';
import { cutText, firstLine } from '../../src/retrieval/text-cut.js';
import { ToolRetriever } from '../../src/retrieval/tool-retriever.js';
import { own, server, tool } from './fixtures.js';

/** True when the text holds half of a surrogate pair on its own (not valid text for a model's API). */
function hasLoneSurrogate(text: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

describe('retrieval text cuts', () => {
  it('collapse every kind of whitespace run to one space, and leave single spaces as they are', () => {
    const texts = [
      'Reads a file from the disk.',
      'Reads  a file',
      'Reads\ta file',
      'Reads a\nfile\r\n',
      'Reads\u00a0a\u2003file',
      ' \t leading and trailing \n ',
      '\ufeffmarked start',
      'one',
      '',
    ];
    for (const text of texts)
      expect(cutText(text, 200), JSON.stringify(text)).toBe(text.replace(/\s+/g, ' ').trim());
    expect(cutText('Reads\u00a0a\u2003file  now', 200)).toBe('Reads a file now');
  });

  it('never split an emoji, wherever the cut falls', () => {
    for (let max = 2; max < 40; max += 1) {
      for (const text of [
        '😀'.repeat(60),
        `a${'😀'.repeat(60)}`,
        `${'😀'.repeat(3)}${' '.repeat(200)}${'😀'.repeat(60)}`,
      ]) {
        const cut = cutText(text, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(hasLoneSurrogate(cut), `${max}: ${JSON.stringify(cut)}`).toBe(false);
        expect(hasLoneSurrogate(firstLine(text, max))).toBe(false);
      }
    }
  });

  it('keep catalog lines, group purposes and search answers whole', () => {
    const emoji = '🎉'.repeat(150);
    const g = own('party', emoji);
    const tools = Array.from({ length: 120 }, (_, i) =>
      tool(`${'🎈'.repeat(i % 7)}party_${i}`, `${'x'.repeat(i % 2)}${emoji}`, i % 3 ? server('mcp/🎉') : g),
    );
    for (const room of [6000, 2999, 1000, 333, 101]) {
      const text = catalog(tools, room);
      expect(text.length).toBeLessThanOrEqual(room);
      expect(hasLoneSurrogate(text), `room ${room}`).toBe(false);
    }
    // A last line too long for any room is cut as a whole: never inside an emoji either.
    const wide = [tool('t', 'does it', server(`mcp/${'🎉'.repeat(100)}`))];
    for (let room = 90; room < 130; room += 1) {
      const text = catalog(wide, room);
      expect(text.length).toBeLessThanOrEqual(room);
      expect(hasLoneSurrogate(text), `room ${room}`).toBe(false);
    }
    const hits = new ToolRetriever(tools).search('party', { limit: 50 });
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(hasLoneSurrogate(h.description)).toBe(false);
  });
});
