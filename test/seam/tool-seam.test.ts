import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/core/logger.js';
import type { ToolDefinition } from '../../src/core/tool.js';
import { createToolSeam } from '../../src/seam/index.js';
import { obj } from './support.js';

function tool(
  name: string,
  parameters: unknown = obj({ q: { type: 'string', format: 'uri' } }),
): ToolDefinition {
  return {
    name,
    description: `does ${name}`,
    parameters,
    risk: 'safe',
    requiresApproval: false,
    provider: 'p',
    app: 'a',
  };
}

describe('the per-turn seam', () => {
  it('returns the previous turn itself when no definition changed, and logs once', () => {
    const logger = memoryLogger();
    const seam = createToolSeam({ logger });
    const tools = [tool('mcp/x/one'), tool('two'), tool('tool_search')];
    const first = seam.prepare(tools);
    expect(first.offered.map((t) => [t.name, t.wireName])).toEqual([
      ['mcp/x/one', 'mcp_x_one'],
      ['two', 'two'],
    ]);
    expect(first.excluded.map((t) => t.reason)).toEqual(['shadows_runtime_tool']);
    expect(first.wireToReal.get('mcp_x_one')).toBe('mcp/x/one');
    const lines = logger.records.length;
    expect(seam.prepare([...tools])).toBe(first);
    expect(logger.records).toHaveLength(lines);
  });

  it('redoes only what changed', () => {
    const seam = createToolSeam();
    const tools = [tool('one'), tool('two')];
    const first = seam.prepare(tools);
    const second = seam.prepare([tools[0] as ToolDefinition, tool('three')]);
    expect(second).not.toBe(first);
    expect(second.offered[0]).toBe(first.offered[0]);
    expect(second.offered.map((t) => t.name)).toEqual(['one', 'three']);
  });

  it('reuses the conform result of a parameters object it has seen', () => {
    const seam = createToolSeam();
    const shared = obj({ q: { type: 'string', format: 'uuid' } });
    const first = seam.prepare([tool('one', shared)]);
    const again = seam.prepare([{ ...tool('one', shared), description: 'now described differently' }]);
    expect(again.offered[0]?.parameters).toBe(first.offered[0]?.parameters);
    expect(again.offered[0]?.description).toBe('now described differently');
  });

  it('puts the seam’s and the census’s exclusions together', () => {
    const seam = createToolSeam({ reserved: ['mine'] });
    const turn = seam.prepare([tool('mine'), tool('broken', { type: 'string' }), tool('ok')]);
    expect(turn.offered.map((t) => t.name)).toEqual(['ok']);
    expect(turn.excluded.map((t) => [t.name, t.reason])).toEqual([
      ['broken', 'no_portable_form'],
      ['mine', 'shadows_runtime_tool'],
    ]);
  });
});
