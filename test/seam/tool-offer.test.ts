import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/core/logger.js';
import type { ToolDefinition } from '../../src/core/tool.js';
import {
  derivedDescription,
  type ExcludedTool,
  type OfferedTool,
  offerTool,
  offerTools,
  WIRE_DESCRIPTION_LIMIT,
} from '../../src/seam/index.js';
import { STRICT_WIRE_NAME, strictProblems } from './strict-profile.js';
import { deepFreeze, obj } from './support.js';

function tool(name: string, parameters: unknown, description = `does ${name}`): ToolDefinition {
  return deepFreeze({ name, description, parameters, risk: 'caution', requiresApproval: true });
}

function offered(item: OfferedTool | ExcludedTool): OfferedTool {
  if (item.kind !== 'offered') throw new Error(`${item.name} was left out: ${item.message}`);
  return item;
}

describe('the tool seam', () => {
  it('offers a portable tool with its own schema object', () => {
    const good = tool('app_good', obj({ q: { type: 'string' } }));
    const out = offered(offerTool(good));
    expect(out.parameters).toBe(good.parameters);
    expect(out.definition).toBe(good);
    expect(out.verdict).toBe('portable');
    expect(out.wire).toEqual({ name: 'app_good', description: 'does app_good', parameters: good.parameters });
  });

  it('repairs a sloppy tool, leaves its definition alone, and says so once', () => {
    const logger = memoryLogger();
    const sloppy = tool('app_sloppy', obj({ q: { type: 'string' } }, { additionalProperties: false }));
    const options = { provider: 'demo-provider', app: 'demo-app', logger };
    const first = offered(offerTool(sloppy, options));
    offerTool(sloppy, options);
    expect(first.parameters).toEqual(obj({ q: { type: 'string' } }));
    expect((sloppy.parameters as Record<string, unknown>).additionalProperties).toBe(false);
    expect(logger.records).toHaveLength(1);
    expect(logger.records[0]?.message).toContain(
      'app "demo-app" (provider "demo-provider"): tool "app_sloppy"',
    );
    expect(logger.records[0]?.message).toContain('repaired schema');
    expect(logger.records[0]?.message).toContain('additionalProperties');
    expect(logger.records[0]?.fields).toMatchObject({
      app: 'demo-app',
      provider: 'demo-provider',
      tool: 'app_sloppy',
    });
  });

  it('leaves out a tool nothing can carry, and names the defect and the fix', () => {
    const logger = memoryLogger();
    const broken = tool('app_broken', { type: 'array', items: { type: 'string' } });
    const good = tool('app_good', obj({ q: { type: 'string' } }));
    const offer = offerTools([broken, good], { provider: 'demo-app', app: 'demo-app', logger });
    expect(offer.offered.map((t) => t.name)).toEqual(['app_good']);
    expect(offer.excluded.map((t) => [t.name, t.reason])).toEqual([['app_broken', 'no_portable_form']]);
    expect(logger.records).toHaveLength(1);
    const line = logger.records[0]?.message ?? '';
    expect(line).toContain('app "demo-app": tool "app_broken" is NOT offered to models');
    expect(line).toContain('parameters: the root must be an object, not "array"');
    expect(line).toContain('make the parameters one object schema');
  });

  it('offers a tool whose list has no items, with that argument as JSON text', () => {
    const logger = memoryLogger();
    const out = offered(
      offerTool(tool('app_lists', obj({ xs: { type: 'array' } })), { app: 'demo-app', logger }),
    );
    expect(out.verdict).toBe('lifted');
    expect(out.lifted.map((l) => l.path)).toEqual(['xs']);
    expect(logger.records[0]?.message).toContain(
      'tool "app_lists" is offered to models with `xs` as JSON text',
    );
    expect(logger.records[0]?.message).toContain(
      'properties.xs: a list must declare the schema of its `items`',
    );
  });

  it('leaves out a nameless tool and says so', () => {
    const logger = memoryLogger();
    const offer = offerTools(
      [tool('  ', obj({})), tool('mcp/notes/search', obj({ q: { type: 'string' } }))],
      {
        provider: 'mcp',
        app: 'mcp-tools',
        logger,
      },
    );
    expect(offer.offered.map((t) => t.name)).toEqual(['mcp/notes/search']);
    expect(offer.excluded.map((t) => t.reason)).toEqual(['no_name']);
    expect(logger.records.map((r) => r.message)).toEqual([
      expect.stringContaining('offers a tool with no name'),
    ]);
  });
});

describe('descriptions are never empty', () => {
  const lookup = tool(
    'mcp/notes/lookup',
    obj(
      { query: { type: 'string', description: 'the text to find' }, limit: { type: 'integer' } },
      { required: ['query'] },
    ),
    '',
  );
  const ping = tool('mcp/notes/ping', undefined, '   ');
  const search = tool('mcp/notes/search', obj({ q: { type: 'string' } }), 'Search the notes.');

  it('writes one from the name and inputs when a tool came without one', () => {
    const logger = memoryLogger();
    const offer = offerTools([lookup, ping, search], { provider: 'mcp', app: 'mcp-tools', logger });
    const [l, p, s] = offer.offered;
    expect(l?.description.startsWith('"mcp/notes/lookup" has no description of its own')).toBe(true);
    expect(l?.description).toContain('query (string, required) — the text to find');
    expect(l?.description).toContain('limit (integer)');
    expect(l?.descriptionDerived).toBe(true);
    expect(p?.description).toContain('"mcp/notes/ping"');
    expect(p?.description).toContain('takes no arguments');
    expect(p?.parameters).toEqual({ type: 'object', properties: {} });
    expect(s?.description).toBe('Search the notes.');
    expect(s?.descriptionDerived).toBe(false);
    expect(lookup.description).toBe('');
    const lines = logger.records.map((r) => r.message);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('app "mcp-tools" (provider "mcp"): tool "mcp/notes/lookup"');
    expect(lines[0]).toContain('no description');
    offerTools([lookup, ping], { provider: 'mcp', app: 'mcp-tools', logger });
    expect(logger.records).toHaveLength(2);
  });

  it('lists twelve inputs, each cut short, and counts the rest', () => {
    const props: Record<string, unknown> = {};
    for (let i = 0; i < 40; i += 1) props[`input_${i}`] = { type: 'string', description: 'x'.repeat(500) };
    const text = derivedDescription('mcp/wide/tool', obj(props));
    expect(text.length).toBeLessThanOrEqual(1200);
    expect(text).toContain('and 28 more');
    expect(text).toContain('input_11 (string)');
    expect(text).not.toContain('input_12 (');
  });

  it('reads types from type lists, anyOf branches and references', () => {
    const text = derivedDescription('t', {
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { anyOf: [{ type: 'integer' }, { type: 'boolean' }] },
        c: { $ref: '#/$defs/C' },
        d: {},
      },
      $defs: { C: { type: 'number', description: 'first line\nsecond line' } },
    });
    expect(text).toContain('a (string); b (integer or boolean); c (number) — first line; d (value).');
  });

  it('finds the inputs of a root that is a reference or merges allOf / anyOf branches (as the offer does)', () => {
    // zod-to-json-schema given a name writes the root as a reference into `definitions`.
    const named = {
      $ref: '#/definitions/Lookup',
      definitions: {
        Lookup: {
          type: 'object',
          properties: { query: { type: 'string', description: 'the text to find' } },
          required: ['query'],
        },
      },
    };
    const merged = {
      type: 'object',
      allOf: [{ $ref: '#/$defs/Paging' }, { properties: { q: { type: 'string' } }, required: ['q'] }],
      anyOf: [{ properties: { id: { type: 'integer' } } }, { properties: { slug: { type: 'string' } } }],
      $defs: { Paging: { properties: { limit: { type: 'integer' } } } },
    };
    for (const parameters of [named, merged]) {
      const out = offered(offerTool(tool('mcp/notes/find', parameters, '')));
      const offeredNames = Object.keys(out.parameters.properties as object);
      expect(offeredNames.length).toBeGreaterThan(0);
      expect(out.description).not.toContain('takes no arguments');
      for (const key of offeredNames) expect(out.description).toContain(`${key} (`);
    }
    expect(derivedDescription('find', named)).toContain('query (string, required) — the text to find.');
    expect(derivedDescription('find', merged)).toContain(
      'limit (integer); q (string, required); id (integer); slug (string).',
    );
  });

  it('cuts a description longer than the wire limit, keeping the whole text', () => {
    const long = `${'word '.repeat(700)}end`;
    const out = offered(offerTool(tool('wordy', obj({ q: { type: 'string' } }), long)));
    expect(out.description).toBe(long);
    expect(out.wireDescription.length).toBeLessThanOrEqual(WIRE_DESCRIPTION_LIMIT);
    expect(out.wireDescription.endsWith('…')).toBe(true);
    expect(out.wire.description).toBe(out.wireDescription);
  });

  it('gives every offered tool a wire form every provider accepts', () => {
    const offer = offerTools([
      lookup,
      ping,
      search,
      tool('3d/print:now', obj({ a: { type: 'object' } }), ''),
    ]);
    for (const t of offer.offered) {
      expect(t.wireName).toMatch(STRICT_WIRE_NAME);
      expect(t.wireDescription.trim()).not.toBe('');
      expect(strictProblems(t.parameters)).toEqual([]);
    }
  });
});
