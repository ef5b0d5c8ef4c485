import { describe, expect, it } from 'vitest';
import { toolDefinitionsFrom } from '../../src/cli/conform-command.js';
import { type LogRecord, memoryLogger } from '../../src/core/logger.js';
import type { ToolDefinition } from '../../src/core/tool.js';
import { conformParameters, createToolSeam, isCosmeticRepair } from '../../src/seam/index.js';
import { corpusServers } from './corpus.js';
import { obj } from './support.js';

/** The four official servers of a newcomer's first hour (issue 25), as the runtime names their tools. */
const OFFICIAL = ['everything', 'filesystem', 'memory', 'sequential-thinking'].map(
  (name) => `modelcontextprotocol__server-${name}`,
);

function officialTools(stems: readonly string[] = OFFICIAL): ToolDefinition[] {
  return corpusServers()
    .filter((s) => stems.includes(s.stem))
    .flatMap((s) => {
      const origin = { server: s.stem, provider: `mcp/${s.stem}`, app: s.stem };
      return toolDefinitionsFrom({ tools: s.tools }, origin, s.stem);
    });
}

function tool(name: string, parameters: unknown, description = `does ${name}`): ToolDefinition {
  return { name, description, parameters, risk: 'safe', requiresApproval: false, provider: 'p', app: 'a' };
}

const warnings = (records: readonly LogRecord[]) => records.filter((r) => r.level === 'warn');

describe("the seam's one line per run", () => {
  it('counts only what a model would see over the four official servers: 2 of 37 tools, in one warn line', () => {
    const logger = memoryLogger();
    const tools = officialTools();
    expect(tools).toHaveLength(37);
    const turn = createToolSeam({ logger }).prepare(tools);
    expect(turn.offered).toHaveLength(37);
    // every one of them had something repaired ($schema dropped), which changes nothing a model reads
    expect(turn.offered.every((t) => t.repairs.length > 0)).toBe(true);
    expect(warnings(logger.records)).toEqual([
      {
        level: 'warn',
        scope: 'seam',
        message:
          '2 tools adjusted so that every provider takes them; `toolseam tools` shows what changed (--verbose lists each one here)',
        fields: { adjusted: 2, leftOut: 0 },
      },
    ]);
    // the details: a line each for --verbose where a model sees the change, the rest below that
    const details = logger.records.filter((r) => r.level === 'info').map((r) => r.fields?.tool);
    expect(details).toEqual([
      'mcp/modelcontextprotocol__server-everything/gzip-file-as-resource',
      'mcp/modelcontextprotocol__server-sequential-thinking/sequentialthinking',
    ]);
    expect(logger.records.filter((r) => r.level === 'debug')).toHaveLength(35);
  });

  it('says nothing at warn for a server whose only repairs are `$schema` dropped', () => {
    const logger = memoryLogger();
    const turn = createToolSeam({ logger }).prepare(
      officialTools(['modelcontextprotocol__server-filesystem']),
    );
    expect(turn.offered.length).toBeGreaterThan(10);
    expect(warnings(logger.records)).toEqual([]);
  });

  it('says it once per run, counting tools left out too, and only once there is something to say', () => {
    const logger = memoryLogger();
    const seam = createToolSeam({ logger });
    const plain = tool(
      'plain',
      obj({ q: { type: 'string' } }, { $schema: 'https://json-schema.org/draft-07/schema#' }),
    );
    seam.prepare([plain]);
    expect(warnings(logger.records)).toEqual([]);
    const undescribed = tool('quiet', obj({ q: { type: 'string' } }), '');
    const broken = tool('broken', { type: 'string' });
    seam.prepare([plain, undescribed, broken, tool('tool_search', obj({}))]);
    expect(warnings(logger.records).map((r) => r.message)).toEqual([
      '1 tool adjusted so that every provider takes it, 2 tools left out (models are not offered them); `toolseam tools` shows how and why (--verbose lists each one here)',
    ]);
    seam.prepare([plain, tool('wide', obj({ q: { type: 'string', format: 'uuid' } }))]);
    expect(warnings(logger.records)).toHaveLength(1);
    // two runtimes sharing a logger say it once between them
    createToolSeam({ logger }).prepare([broken]);
    expect(warnings(logger.records)).toHaveLength(1);
  });
});

describe('cosmetic repairs', () => {
  const issuesOf = (schema: unknown) => conformParameters(schema).issues;

  it('are keywords only schema tooling reads, wherever they sit', () => {
    const issues = issuesOf(
      obj(
        { q: { type: 'string', $comment: 'for maintainers', $id: 'q' } },
        { $schema: 'https://json-schema.org/draft/2020-12/schema' },
      ),
    );
    expect(issues.map((i) => i.path).sort()).toEqual([
      '$schema',
      'properties.q.$comment',
      'properties.q.$id',
    ]);
    expect(issues.every(isCosmeticRepair)).toBe(true);
  });

  it('leave out everything a model would read differently', () => {
    const cases = [
      obj({ q: { type: 'string' } }, { additionalProperties: false }),
      obj({ q: { type: 'string', format: 'uri' } }),
      obj({ q: { type: ['string', 'number'] } }),
      obj({ q: { type: 'string', examples: ['x'] } }),
      obj({ q: { $ref: '#/$defs/text' } }, { $defs: { text: { type: 'string' } } }),
    ];
    for (const schema of cases) {
      const seen = issuesOf(schema).filter((i) => !isCosmeticRepair(i));
      expect(seen.length, JSON.stringify(schema)).toBeGreaterThan(0);
    }
    // `$defs` itself is dropped only once every reference into it is inlined: that inlining is what counts
    const refs = issuesOf(obj({ q: { $ref: '#/$defs/text' } }, { $defs: { text: { type: 'string' } } }));
    expect(refs.filter((i) => !isCosmeticRepair(i)).map((i) => i.path)).toEqual(['properties.q']);
  });
});
