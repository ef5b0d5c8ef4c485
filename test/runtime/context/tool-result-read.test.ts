import { describe, expect, it } from 'vitest';
import type { FullResult } from '../../../src/core/context-records.js';
import type { BatchRecord } from '../../../src/core/session-records.js';
import type { RuntimeToolContext } from '../../../src/runtime/calls/runtime-tool.js';
import { leafResultId } from '../../../src/runtime/context/leaf-result-id.js';
import { toolResultRead } from '../../../src/runtime/context/tool-result-read.js';

const leafOutput = `${'leaf says '.repeat(5000)}the END`;

/** A store holding one kept result and one batch, both of session `s`. */
const store: RuntimeToolContext['store'] = {
  createBatch: async () => {
    throw new Error('not used');
  },
  listBatches: async () => [],
  getBatch: async (id) =>
    id === 'b1'
      ? ({
          id: 'b1',
          parentSessionId: 's',
          leaves: [{ batchId: 'b1', index: 0, output: leafOutput }],
        } as unknown as BatchRecord)
      : undefined,
  getFullResult: async (id) =>
    id === 'result-1'
      ? ({
          id,
          sessionId: 's',
          turnId: 't',
          callId: 'c',
          tool: 'x',
          content: 'a\nb\nc',
          createdAt: '',
        } as FullResult)
      : undefined,
};

function ctx(sessionId: string): RuntimeToolContext {
  return {
    sessionId,
    turnId: 't',
    callId: 'c',
    signal: new AbortController().signal,
    emit: () => undefined,
    store,
    offeredNames: [],
    mode: 'normal' as RuntimeToolContext['mode'],
    inLeaf: false,
  };
}

describe('tool_result_read', () => {
  const tool = toolResultRead();
  it("reads a subagent leaf's whole output by the id its batch result names, from where the cut left off", async () => {
    const id = leafResultId({ batchId: 'b1', index: 0 });
    const end = await tool.run({ id, offset: leafOutput.length - 7 }, ctx('s'));
    expect(end.content).toContain('the END\n[end of the result]');
  });
  it("reads another session's result or leaf as unknown", async () => {
    for (const id of ['result-1', leafResultId({ batchId: 'b1', index: 0 })]) {
      const other = await tool.run({ id }, ctx('other'));
      expect(other).toMatchObject({ isError: true, data: { code: 'unknown_result' } });
    }
  });
  it('reads lines of a kept result, and asks for the id when it is missing', async () => {
    expect((await tool.run({ id: 'result-1', line_from: 2, line_to: 3 }, ctx('s'))).content).toBe(
      '2: b\n3: c',
    );
    expect(await tool.run({}, ctx('s'))).toMatchObject({ isError: true, data: { code: 'missing_id' } });
  });
  it('reads no more at once than a result may hold, so its own answer is never cut and kept again', async () => {
    const id = leafResultId({ batchId: 'b1', index: 0 });
    const small = { ...ctx('s'), resultChars: 1_000 };
    const part = await tool.run({ id, length: 5_000 }, small);
    expect(part.content.length).toBeLessThanOrEqual(1_000);
    expect(part.content).toContain('[characters 0–800 of');
    expect(part.content).toContain('call tool_result_read with offset 800');
    const lines = await tool.run({ id, line_from: 1 }, small);
    expect(lines.content.length).toBeLessThanOrEqual(1_000);
    const many = { ...store, getFullResult: async () => ({ sessionId: 's', content: 'hit\n'.repeat(500) }) };
    const found = await tool.run({ id: 'result-2', pattern: 'hit' }, { ...small, store: many } as never);
    expect(found.content.length).toBeLessThanOrEqual(1_000);
    expect(found.content).toMatch(/^500 matching line\(s\):\n1 \(offset 0\): hit\n/);
    expect(found.content).toMatch(/\[\d+ more matching lines; narrow the pattern\]$/);
  });
});
