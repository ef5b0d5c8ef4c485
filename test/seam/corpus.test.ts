import { describe, expect, it } from 'vitest';
import { toolDefinitionsFrom } from '../../src/cli/conform-command.js';
import { memoryLogger } from '../../src/core/logger.js';
import {
  type ExcludedTool,
  type LiftedArgument,
  nameCensus,
  type OfferedTool,
  offerTools,
  WIRE_DESCRIPTION_LIMIT,
} from '../../src/seam/index.js';
import { corpusServers, referenceVerdicts } from './corpus.js';
import { STRICT_WIRE_NAME, strictProblems } from './strict-profile.js';

interface Row {
  readonly stem: string;
  readonly tool: string;
  readonly declared: unknown;
  readonly item: OfferedTool | ExcludedTool;
}

/** Conforms every corpus server as the runtime would: real names mcp/<stem>/<tool>, one census over all. */
function conformCorpus() {
  const logger = memoryLogger();
  const servers = corpusServers();
  const offered: OfferedTool[] = [];
  const excluded: ExcludedTool[] = [];
  const rows: Row[] = [];
  for (const s of servers) {
    const origin = { server: s.stem, provider: `mcp/${s.stem}`, app: 'mcp' };
    const definitions = toolDefinitionsFrom({ tools: s.tools }, origin, s.stem);
    const offer = offerTools(definitions, { ...origin, logger });
    offered.push(...offer.offered);
    excluded.push(...offer.excluded);
  }
  const census = nameCensus(offered, { logger });
  excluded.push(...census.excluded);
  const byName = new Map<string, OfferedTool | ExcludedTool>();
  for (const t of [...census.offered, ...excluded]) byName.set(t.name, t);
  for (const s of servers) {
    for (const raw of s.tools) {
      const name = `mcp/${s.stem}/${String(raw.name)}`;
      const item = byName.get(name);
      if (item === undefined) throw new Error(`${name} was lost`);
      rows.push({ stem: s.stem, tool: String(raw.name), declared: raw.inputSchema, item });
    }
  }
  return { rows, offered: census.offered, excluded, logger };
}

type Node = Record<string, unknown>;

/** The offered nodes an argument path reaches (through every `anyOf` branch on the way). */
function nodesAt(schema: unknown, steps: readonly LiftedArgument['steps'][number][]): Node[] {
  const node = schema as Node;
  if (Array.isArray(node.anyOf)) return node.anyOf.flatMap((b) => nodesAt(b, steps));
  const [step, ...rest] = steps;
  if (step === undefined) return [node];
  const next = step.kind === 'element' ? node.items : (node.properties as Node | undefined)?.[step.name];
  return next === undefined ? [] : nodesAt(next, rest);
}

describe('the whole MCP corpus through the seam', () => {
  const { rows, offered, excluded, logger } = conformCorpus();

  it('holds 54 servers and 1,403 tools', () => {
    expect(new Set(rows.map((r) => r.stem)).size).toBe(54);
    expect(rows).toHaveLength(1403);
  });

  it('offers only schemas that pass the strict checker, under wire names and descriptions every provider accepts', () => {
    const problems: string[] = [];
    for (const tool of offered) {
      for (const p of strictProblems(tool.parameters)) problems.push(`${tool.name}: ${p}`);
      if (!STRICT_WIRE_NAME.test(tool.wireName)) problems.push(`${tool.name}: wire name ${tool.wireName}`);
      if (tool.wireDescription.trim() === '' || tool.wireDescription.length > WIRE_DESCRIPTION_LIMIT) {
        problems.push(`${tool.name}: wire description of ${tool.wireDescription.length} characters`);
      }
    }
    expect(problems).toEqual([]);
    expect(new Set(offered.map((t) => t.wireName)).size).toBe(offered.length);
  });

  it('leaves out fewer than 1% of the tools', () => {
    expect(excluded.length).toBeLessThan(rows.length * 0.01);
  });

  it('offers every tool the original seam offers (no regression), under the same wire name when it did not cut it', () => {
    const reference = referenceVerdicts();
    expect(reference).toHaveLength(rows.length);
    const byKey = new Map(rows.map((r) => [`${r.stem}/${r.tool}`, r]));
    const regressions: string[] = [];
    const renamed: string[] = [];
    for (const verdict of reference) {
      const row = byKey.get(`${verdict.server}/${verdict.name}`);
      if (row === undefined) throw new Error(`no row for ${verdict.server}/${verdict.name}`);
      const offeredByReference = verdict.verdict !== 'excluded' && !verdict.censusLeftOut;
      if (offeredByReference && row.item.kind !== 'offered') regressions.push(row.item.name);
      if (
        row.item.kind === 'offered' &&
        verdict.wireName.length < 64 &&
        row.item.wireName !== verdict.wireName
      ) {
        renamed.push(`${row.item.name}: ${row.item.wireName} vs ${verdict.wireName}`);
      }
      if (row.item.kind === 'offered' && row.item.verdict === 'portable') {
        expect(row.item.parameters).toBe(row.declared);
      }
      if (verdict.verdict === 'portable' && row.item.kind === 'offered' && row.item.verdict !== 'portable') {
        // The one difference allowed: a root without `properties` gets an empty one.
        expect(row.item.repairs.map((r) => [r.rule, r.path])).toEqual([['object_properties_missing', '']]);
      }
    }
    expect(regressions).toEqual([]);
    expect(renamed).toEqual([]);
    expect(reference.filter((v) => v.verdict === 'excluded')).toHaveLength(185);
    expect(reference.filter((v) => v.censusLeftOut)).toHaveLength(17);
  });

  it('offers every lifted argument as a string in the offered schema', () => {
    let lifts = 0;
    for (const tool of offered) {
      for (const lift of tool.lifted) {
        const found = nodesAt(tool.parameters, lift.steps);
        expect(found.length, `${tool.name} ${lift.path}`).toBeGreaterThan(0);
        expect(
          found.some((n) => n.type === 'string'),
          `${tool.name} ${lift.path}`,
        ).toBe(true);
        lifts += 1;
      }
    }
    expect(lifts).toBeGreaterThan(100);
  });

  it('writes one log line per changed or left-out tool', () => {
    const seamLines = logger.records.filter((r) => r.scope === 'seam');
    const changed = offered.filter((t) => t.verdict !== 'portable' || t.descriptionDerived).length;
    const leftOutBySeam = excluded.filter(
      (t) => t.reason === 'no_portable_form' || t.reason === 'no_name',
    ).length;
    expect(seamLines.length).toBeGreaterThanOrEqual(changed);
    expect(seamLines.length).toBeLessThanOrEqual(changed + leftOutBySeam + offered.length);
    for (const line of seamLines)
      expect(line.message).toMatch(/^app "mcp" \(provider "mcp\/[^"]+"\): tool "mcp\//);
  });
});
