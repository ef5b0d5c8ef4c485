import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/core/logger.js';
import type { ToolDefinition } from '../../src/core/tool.js';
import { nameCensus, offerTools, realNameOf, wireName } from '../../src/seam/index.js';
import { STRICT_WIRE_NAME } from './strict-profile.js';
import { obj } from './support.js';

function census(names: string[], options: { reserved?: readonly string[] } = {}) {
  const logger = memoryLogger();
  const definitions: ToolDefinition[] = names.map((name) => ({
    name,
    description: `does ${name}`,
    parameters: obj({ q: { type: 'string' } }),
    risk: 'caution',
    requiresApproval: true,
  }));
  const offer = offerTools(definitions, { provider: 'mcp', app: 'mcp-tools', logger });
  const result = nameCensus(offer.offered, { ...options, logger });
  return { ...result, kept: result.offered.map((t) => t.name), logger };
}

describe('wire names', () => {
  it('keeps a safe name and replaces every other character', () => {
    expect(wireName('plain_tool')).toBe('plain_tool');
    expect(wireName('g-tool')).toBe('g-tool');
    expect(wireName('mcp/server/echo')).toBe('mcp_server_echo');
    expect(wireName('mcp/a.b/x')).toBe('mcp_a_b_x');
    expect(wireName('café 😀')).toMatch(/^caf____[0-9a-f]{8}$/);
  });

  it('keeps names in other scripts apart with a hash of the real name', () => {
    const names = ['mcp/jp/検索', 'mcp/jp/削除', 'mcp/jp/作成', 'mcp/ru/поиск'];
    const wire = names.map(wireName);
    expect(new Set(wire).size).toBe(names.length);
    for (const w of wire) expect(w).toMatch(STRICT_WIRE_NAME);
    expect(wire[0]).toMatch(/^mcp_jp____[0-9a-f]{8}$/);
    expect(census(names).kept).toEqual(names);
  });

  it('starts with a letter or underscore', () => {
    expect(wireName('3d-print')).toBe('_3d-print');
    expect(wireName('-dash')).toBe('_-dash');
    expect(wireName('_ok')).toBe('_ok');
  });

  it('cuts a long name but keeps distinct names distinct and stable', () => {
    const a = `mcp/notes/${'a'.repeat(80)}`;
    const b = `mcp/notes/${'a'.repeat(81)}`;
    expect(wireName(a)).toHaveLength(64);
    expect(wireName(a)).toMatch(STRICT_WIRE_NAME);
    expect(wireName(a).startsWith('mcp_notes_aaaa')).toBe(true);
    expect(wireName(a)).not.toBe(wireName(b));
    expect(wireName(a)).toBe(wireName(a));
    expect(wireName('x'.repeat(64))).toBe('x'.repeat(64));
    expect(wireName('x'.repeat(65))).toHaveLength(64);
  });
});

describe('the name census', () => {
  it('maps a healed name back to its tool', () => {
    const result = census(['mcp/server/echo', 'plain_tool']);
    expect(result.kept).toEqual(['mcp/server/echo', 'plain_tool']);
    expect([...result.wireToReal]).toEqual([
      ['mcp_server_echo', 'mcp/server/echo'],
      ['plain_tool', 'plain_tool'],
    ]);
    expect(realNameOf(result, 'mcp_server_echo')).toBe('mcp/server/echo');
    expect(realNameOf(result, 'mcp/server/echo')).toBe('mcp/server/echo');
    expect(realNameOf(result, 'nothing')).toBeUndefined();
  });

  it('leaves out every tool of a collision that none of them owns', () => {
    const result = census(['mcp/a/b', 'mcp/a_b', 'mcp_a/b', 'mcp/ok/c']);
    expect(result.kept).toEqual(['mcp/ok/c']);
    expect(result.excluded.map((t) => [t.name, t.reason])).toEqual([
      ['mcp/a/b', 'name_collision'],
      ['mcp/a_b', 'name_collision'],
      ['mcp_a/b', 'name_collision'],
    ]);
    expect(result.wireToReal.has('mcp_a_b')).toBe(false);
  });

  it('lets the tool whose real name is the wire name keep it', () => {
    const result = census(['mcp/x', 'mcp_x']);
    expect(result.kept).toEqual(['mcp_x']);
    expect(result.excluded.map((t) => t.name)).toEqual(['mcp/x']);
    expect(result.wireToReal.get('mcp_x')).toBe('mcp_x');
  });

  it("leaves out tools that have or travel under the runtime's own names", () => {
    const result = census(['mcp/a/b', 'mcp/a_b', 'mcp/ok/c', 'tool_search', 'tool/schema', 'subagent_run']);
    expect(result.kept).toEqual(['mcp/ok/c']);
    expect(result.excluded.map((t) => [t.name, t.reason])).toEqual([
      ['tool_search', 'shadows_runtime_tool'],
      ['tool/schema', 'shadows_runtime_tool'],
      ['subagent_run', 'shadows_runtime_tool'],
      ['mcp/a/b', 'name_collision'],
      ['mcp/a_b', 'name_collision'],
    ]);
    expect([...result.wireToReal]).toEqual([['mcp_ok_c', 'mcp/ok/c']]);
    const lines = result.logger.records.filter((r) => r.scope === 'census').map((r) => r.message);
    expect(lines.some((l) => l.includes('"tool_search"'))).toBe(true);
    expect(lines.some((l) => l.includes('"tool/schema"'))).toBe(true);
  });

  it('takes the reserved names it is given', () => {
    expect(census(['subagent_run', 'mine'], { reserved: ['mine'] }).kept).toEqual(['subagent_run']);
  });

  it('keeps distinct names distinct', () => {
    expect(census(['alpha', 'beta_2', 'g-tool']).excluded).toEqual([]);
  });

  it('logs one line per collision naming both tools and the wire name', () => {
    const result = census(['mcp/a_b/x', 'mcp/a.b/x', 'mcp/kept/y']);
    expect(result.kept).toEqual(['mcp/kept/y']);
    const lines = result.logger.records.filter((r) => r.scope === 'census').map((r) => r.message);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"mcp/a_b/x"');
    expect(lines[0]).toContain('"mcp/a.b/x"');
    expect(lines[0]).toContain('"mcp_a_b_x"');
    expect(lines[0]).toContain('NOT offered');
  });

  it('keeps two long names that share their first 64 characters', () => {
    const a = `mcp/browserbase/browserbase_stagehand_${'x'.repeat(30)}_navigate`;
    const b = `mcp/browserbase/browserbase_stagehand_${'x'.repeat(30)}_act`;
    const result = census([a, b]);
    expect(result.kept).toEqual([a, b]);
    expect(realNameOf(result, wireName(b))).toBe(b);
  });

  it('offers the first of tools listed under one name twice, safe name or not, and leaves the repeat out', () => {
    const result = census(['mcp/a/b', 'mcp/a/b', 'ok', 'ok']);
    expect(result.kept).toEqual(['mcp/a/b', 'ok']);
    expect(result.excluded.map((t) => [t.name, t.reason])).toEqual([
      ['mcp/a/b', 'name_collision'],
      ['ok', 'name_collision'],
    ]);
    expect(result.excluded[0]?.message).toBe('another tool listed before it has the same name');
    const lines = result.logger.records.filter((r) => r.scope === 'census').map((r) => r.message);
    expect(lines).toEqual([
      'tool "mcp/a/b" is listed more than once; only the first is offered to models.',
      'tool "ok" is listed more than once; only the first is offered to models.',
    ]);
    expect(realNameOf(result, 'mcp_a_b')).toBe('mcp/a/b');
  });
});
