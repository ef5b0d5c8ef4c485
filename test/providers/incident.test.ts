import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, ToolSchemaRejected } from '../../src/core/errors.js';
import type { WireTool } from '../../src/core/model.js';
import type { ToolDefinition } from '../../src/core/tool.js';
import { toolSchemaRejection } from '../../src/core/tool-rejection.js';
import { createModelAdapter } from '../../src/providers/index.js';
import { type OfferedTool, offerTool } from '../../src/seam/index.js';
import { type StandIn, startStandIn } from '../../src/testing/index.js';
import { ask, collect, failure, textOf } from '../support/provider-harness.js';

function tool(name: string, parameters: unknown): ToolDefinition {
  return { name, description: `The ${name} tool.`, parameters, risk: 'caution', requiresApproval: true };
}

/** The incident's tool: five arrays declared without `items`. */
const PROJECT_RUN_CREATE = tool('mcp/projects/project_run_create', {
  type: 'object',
  properties: {
    title: { type: 'string' },
    deliverables: { type: 'array', description: 'What the run produces.' },
    stages: { type: 'array' },
    owners: { type: 'array' },
    risks: { type: 'array' },
    links: { type: 'array' },
  },
  required: ['title'],
});
const MEMORY_LIST = tool('memory_list', undefined);
const NOTES_SEARCH = tool('mcp/notes/search', {
  type: 'object',
  properties: { q: { type: 'string', description: 'What to find.' } },
  required: ['q'],
});

function offered(definition: ToolDefinition): OfferedTool {
  const offer = offerTool(definition);
  if (offer.kind !== 'offered') throw new Error(`the seam left ${definition.name} out: ${offer.message}`);
  return offer;
}

/** A tool sent as declared, with no seam in between (the control). */
function raw(definition: ToolDefinition): WireTool {
  return {
    name: definition.name.replaceAll('/', '_'),
    description: definition.description,
    parameters: (definition.parameters ?? { type: 'object', properties: {} }) as WireTool['parameters'],
  };
}

describe('the incident, end to end: the openai SDK against the Gemini-compatible stand-in', () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await startStandIn({ family: 'openai', mode: 'gemini' });
  });
  afterAll(() => standIn.close());
  beforeEach(() => standIn.reset());

  const adapter = () =>
    createModelAdapter({
      ...standIn.modelConfig('gemini-2.5-flash'),
      retry: { maxRetries: 2, baseDelayMs: 1 },
      env: {},
    });

  it('control: the raw tool with arrays missing items is rejected, every turn, and blamed on it', async () => {
    const sent = [raw(NOTES_SEARCH), raw(PROJECT_RUN_CREATE), raw(MEMORY_LIST)];
    standIn.push({ text: 'never reached' });
    const model = adapter();
    const error = await failure(model.stream(ask('plan the launch', sent)));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).status).toBe(400);
    expect((error as ProviderError).rawBody).toContain(
      'function_declarations[1].parameters.properties[deliverables].items: missing field.',
    );
    expect(model.toolsNamedInRejection(error, sent)).toEqual(['mcp_projects_project_run_create']);
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.pending).toBe(1);
  });

  it('after the seam the same tool is accepted', async () => {
    const tools = [offered(NOTES_SEARCH), offered(PROJECT_RUN_CREATE), offered(MEMORY_LIST)];
    expect(tools[1]?.lifted.length).toBeGreaterThan(0);
    standIn.push({ text: 'Launch planned.' });
    const events = await collect(
      adapter().stream(
        ask(
          'plan the launch',
          tools.map((t) => t.wire),
        ),
      ),
    );
    expect(textOf(events)).toBe('Launch planned.');
    expect(standIn.requests).toHaveLength(1);
    expect(standIn.requests[0]?.outcome.kind).toBe('answered');
    expect(standIn.requests[0]?.tools.map((t) => t.name)).toEqual(tools.map((t) => t.wireName));
  });

  it('a tool the provider rejects anyway becomes ToolSchemaRejected naming it, sent once', async () => {
    const tools = [offered(NOTES_SEARCH), offered(PROJECT_RUN_CREATE), offered(MEMORY_LIST)];
    const wire = tools.map((t) => t.wire);
    const notes = tools[0] as OfferedTool;
    standIn.rejectTool(notes.wireName).push({ text: 'never reached' });
    const model = adapter();
    const error = await failure(model.stream(ask('find my notes', wire)));
    const byWire = new Map(tools.map((t) => [t.wireName, { name: t.name, canTurnOff: true }]));
    const rejected = toolSchemaRejection(model, error, wire, (name) => byWire.get(name));
    expect(rejected).toBeInstanceOf(ToolSchemaRejected);
    expect(rejected?.tools).toEqual([{ name: 'mcp/notes/search', canTurnOff: true }]);
    expect(rejected?.message).toContain('"mcp/notes/search"');
    expect(rejected?.message).toContain('switch that tool off on the Tools page');
    expect(rejected?.message).toContain('then send your message again');
    expect((error as ProviderError).retryable).toBe(false);
    expect(standIn.requests).toHaveLength(1);
  });
});
