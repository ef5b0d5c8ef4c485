import { describe, expect, it } from 'vitest';
import { EDGE_BYTES, edgeId, StdoutLines } from '../../../src/tools/mcp/stdout-lines.js';

/** Everything `lines` hands back after `chunks`, oversized lines as their size and id. */
function read(max: number, chunks: readonly string[]): unknown[] {
  const lines = new StdoutLines(max);
  const out: unknown[] = [];
  for (const chunk of chunks) {
    lines.append(Buffer.from(chunk));
    for (let item = lines.next(); item !== undefined; item = lines.next()) {
      out.push(item.kind === 'line' ? item.text : { bytes: item.bytes, id: edgeId(item) });
    }
  }
  return out;
}

describe("a stdio server's output read as lines", () => {
  it('hands back lines split across chunks, without their line endings', () => {
    expect(read(100, ['{"a"', ':1}\r\n{"b":2}\n', '\n'])).toEqual(['{"a":1}', '{"b":2}', '']);
  });

  it('counts a line past the limit to its end, then reads the lines after it as usual', () => {
    const big = `{"jsonrpc":"2.0","id":7,"result":{"text":"${'x'.repeat(500)}"}}`;
    const chunks = ['{"ok":1}\n', big.slice(0, 50), big.slice(50, 300), `${big.slice(300)}\n{"ok":2}\n`];
    expect(read(100, chunks)).toEqual(['{"ok":1}', { bytes: big.length, id: 7 }, '{"ok":2}']);
  });

  it('finds the id of an oversized answer at its end, and never an id nested inside it', () => {
    const last = `{"result":{"items":[{"id":1}],"text":"${'y'.repeat(EDGE_BYTES * 3)}"},"jsonrpc":"2.0","id":"call-9"}`;
    expect(read(100, [`${last}\n`])).toEqual([{ bytes: last.length, id: 'call-9' }]);
    const nested = `{"method":"notifications/message","params":{"data":"${'z'.repeat(300)}","id":4}}`;
    expect(read(100, [`${nested}\n`])).toEqual([{ bytes: nested.length, id: undefined }]);
  });
});
