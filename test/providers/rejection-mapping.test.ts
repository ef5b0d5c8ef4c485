import { describe, expect, it } from 'vitest';
import { ProviderError, ToolSchemaRejected } from '../../src/core/errors.js';
import type { WireTool } from '../../src/core/model.js';
import { toolSchemaRejection } from '../../src/core/tool-rejection.js';
import {
  ANTHROPIC_DIALECTS,
  BEDROCK_DIALECTS,
  OPENAI_FAMILY_DIALECTS,
  rejectionFinding,
  toolsAttributedInRejection,
  toolsNamedInRejection,
} from '../../src/providers/index.js';
import { pythonRepr } from '../../src/providers/openai/python-repr.js';
import { toolsFor } from '../support/provider-corpus.js';

function rejection(status: number | undefined, rawBody: string, providerCode?: string): ProviderError {
  return new ProviderError({
    provider: 'test',
    status,
    message: 'rejected',
    retryable: false,
    rawBody,
    providerCode,
  });
}

function gemini(line: string): string {
  return JSON.stringify([
    { error: { code: 400, message: `* GenerateContentRequest.${line}\n`, status: 'INVALID_ARGUMENT' } },
  ]);
}

const openai = (error: unknown, sent: readonly WireTool[]) =>
  toolsNamedInRejection(error, sent, OPENAI_FAMILY_DIALECTS);

describe('Gemini declaration paths', () => {
  const tools = toolsFor({ count: 3, props: { 1: ['deliverables', 'owner'] } });

  it('trusts an index only when that tool declares the property the error names', () => {
    const path =
      'tools[0].function_declarations[1].parameters.properties[deliverables].items: missing field.';
    expect(openai(rejection(400, gemini(path)), tools)).toEqual(['tool_1']);
    const elsewhere =
      'tools[0].function_declarations[0].parameters.properties[deliverables].items: missing field.';
    expect(openai(rejection(400, gemini(elsewhere)), tools)).toEqual([]);
  });

  it('reads proto-parse paths by position, and accepts a quoted key', () => {
    const positional = JSON.stringify({
      error: {
        code: 400,
        message: `Invalid JSON payload received. Unknown name "x" at 'tools[0].function_declarations[1].parameters.properties[1].value': Cannot find field.`,
      },
    });
    expect(openai(rejection(400, positional), tools)).toEqual(['tool_1']);
    const tooFar = positional.replace('properties[1]', 'properties[2]');
    expect(openai(rejection(400, tooFar), tools)).toEqual([]);
    expect(
      openai(
        rejection(
          400,
          gemini(`tools[0].function_declarations[1].parameters.properties['owner'].type: must be specified`),
        ),
        tools,
      ),
    ).toEqual(['tool_1']);
  });

  it('accepts the request. prefix of the Cloud Code path and ignores an index past the tools sent', () => {
    expect(
      openai(
        rejection(400, gemini('request.tools[0].function_declarations[2].name: Invalid function name.')),
        tools,
      ),
    ).toEqual(['tool_2']);
    expect(
      openai(rejection(400, gemini('tools[0].function_declarations[9].name: Invalid function name.')), tools),
    ).toEqual([]);
  });
});

describe('what is not about a tool definition names nobody', () => {
  const tools = toolsFor({ count: 3 });
  it.each([
    [
      'a rate limit, whatever it mentions',
      429,
      '{"error":{"message":"Rate limit for tools[0].function.parameters","type":"requests"}}',
    ],
    ['a server error', 500, '{"error":{"message":"The server had an error"}}'],
    [
      'a prompt too long',
      400,
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 250000 tokens > 200000 maximum"}}',
    ],
    [
      'a message error',
      400,
      '{"error":{"message":"Invalid parameter: messages with role \'tool\' must answer a tool call.","param":"messages.[2].role"}}',
    ],
    [
      'an Anthropic message-level tool_result error',
      400,
      '{"type":"error","error":{"type":"invalid_request_error","message":"messages.3.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1."}}',
    ],
  ])('%s', (_label, status, body) => {
    expect(openai(rejection(status, body), tools)).toEqual([]);
    expect(toolsNamedInRejection(rejection(status, body), tools, ANTHROPIC_DIALECTS)).toEqual([]);
  });

  it('names nobody when no tools were sent', () => {
    expect(openai(rejection(400, gemini('tools[0].function_declarations[0].name: bad')), [])).toEqual([]);
  });
});

describe('the forms of each family', () => {
  const tools = toolsFor({ count: 5, names: { 2: 'search_notes' } });

  it('OpenAI: a quoted function name wins over an index that disagrees', () => {
    const body = JSON.stringify({
      error: {
        message: "Invalid schema for function 'search_notes': In context=(), bad.",
        param: 'tools[4].function.parameters',
        code: 'invalid_function_parameters',
      },
    });
    expect(openai(rejection(400, body), tools)).toEqual(['search_notes']);
  });

  it('Anthropic tools.N.custom and Bedrock relaying it are 0-based; Bedrock member paths are 1-based', () => {
    const anthropic =
      '{"type":"error","error":{"type":"invalid_request_error","message":"tools.3.custom.name: bad"}}';
    expect(toolsNamedInRejection(rejection(400, anthropic), tools, ANTHROPIC_DIALECTS)).toEqual(['tool_3']);
    const member = `{"message":"1 validation error detected: Value 'x' at 'toolConfig.tools.3.member.toolSpec.name' failed"}`;
    expect(toolsNamedInRejection(rejection(400, member), tools, BEDROCK_DIALECTS)).toEqual(['search_notes']);
    const spec =
      '{"message":"The value at toolConfig.tools.3.toolSpec.inputSchema.json.type must be one of the following: object."}';
    expect(toolsNamedInRejection(rejection(400, spec), tools, BEDROCK_DIALECTS)).toEqual(['tool_3']);
  });

  it('an in-stream Bedrock ValidationException (no status) still names its tool', () => {
    const body =
      '{"message":"The value at toolConfig.tools.1.toolSpec.inputSchema.json.type must be one of the following: object."}';
    expect(
      toolsNamedInRejection(rejection(undefined, body, 'ValidationException'), tools, BEDROCK_DIALECTS),
    ).toEqual(['tool_1']);
    expect(
      toolsNamedInRejection(rejection(undefined, body, 'ThrottlingException'), tools, BEDROCK_DIALECTS),
    ).toEqual([]);
  });

  it('OpenRouter relaying Anthropic and Bedrock texts in metadata.raw', () => {
    const raw =
      '{"type":"error","error":{"type":"invalid_request_error","message":"tools.4.custom.input_schema: JSON schema is invalid."}}';
    const body = JSON.stringify({
      error: { message: 'Provider returned error', code: 400, metadata: { raw, provider_name: 'Anthropic' } },
    });
    expect(openai(rejection(400, body), tools)).toEqual(['tool_4']);
    const plain = JSON.stringify({
      error: {
        message: 'Provider returned error',
        code: 400,
        metadata: { raw: 'upstream: tools.1.custom.name: bad', provider_name: 'Amazon Bedrock' },
      },
    });
    expect(openai(rejection(400, plain), tools)).toEqual(['tool_1']);
  });

  it('an unknown OpenAI-compatible server: the generic last resort reads a schema complaint with an index', () => {
    const body = JSON.stringify({ detail: 'tools[3] has an invalid parameters schema' });
    expect(openai(rejection(400, body), tools)).toEqual(['tool_3']);
    expect(openai(rejection(400, JSON.stringify({ detail: 'tools[3] is not allowed here' })), tools)).toEqual(
      [],
    );
  });

  it('names several tools in request order without repeats', () => {
    const body = gemini(
      'tools[0].function_declarations[3].name: bad\n* GenerateContentRequest.tools[0].function_declarations[1].name: bad\n* GenerateContentRequest.tools[0].function_declarations[3].parameters.required[0]: property is not defined',
    );
    expect(openai(rejection(400, body), tools)).toEqual(['tool_1', 'tool_3']);
  });

  it('reads SDK errors that were never converted (the adapter converts them first)', () => {
    const sdkLike = Object.assign(new Error('400 bad'), {
      status: 400,
      error: { message: 'tools.2.custom.name: bad' },
    });
    expect(toolsNamedInRejection(sdkLike, tools, ANTHROPIC_DIALECTS)).toEqual(['search_notes']);
  });
});

describe('how surely a rejection is attributed (only then may its tools be left out)', () => {
  const tools = toolsFor({ count: 4, names: { 2: 'search_notes' }, props: { 1: ['deliverables'] } });
  const finding = (body: string, dialects = OPENAI_FAMILY_DIALECTS) =>
    rejectionFinding(rejection(400, body), tools, dialects);

  it('the provider names the tool, or points at it in its own path form: attributed', () => {
    const named = JSON.stringify({ error: { message: "Invalid schema for function 'search_notes': bad" } });
    expect(finding(named)).toEqual({ tools: ['search_notes'], attributed: true });
    const param = JSON.stringify({ error: { message: 'bad', param: 'tools[3].function.parameters' } });
    expect(finding(param)).toEqual({ tools: ['tool_3'], attributed: true });
    const declared = gemini('tools[0].function_declarations[1].parameters.properties[deliverables].items: x');
    expect(finding(declared)).toEqual({ tools: ['tool_1'], attributed: true });
    const anthropic = JSON.stringify({
      error: { message: 'tools.2.custom.input_schema: JSON schema is invalid' },
    });
    expect(finding(anthropic, ANTHROPIC_DIALECTS)).toEqual({ tools: ['search_notes'], attributed: true });
    const bedrock = JSON.stringify({
      message: 'The json schema definition at toolConfig.tools.0.toolSpec.inputSchema is invalid',
    });
    expect(finding(bedrock, BEDROCK_DIALECTS)).toEqual({ tools: ['tool_0'], attributed: true });
  });

  it('only the last resort found it (a loose index in a text about schemas): named, not attributed', () => {
    const loose = JSON.stringify({ detail: 'tools[3] has an invalid parameters schema' });
    expect(finding(loose)).toEqual({ tools: ['tool_3'], attributed: false });
    expect(toolsAttributedInRejection(rejection(400, loose), tools, OPENAI_FAMILY_DIALECTS)).toEqual([]);
    // a property the tool does not declare: the path is not trusted at all
    const elsewhere = gemini(
      'tools[0].function_declarations[0].parameters.properties[deliverables].items: x',
    );
    expect(finding(elsewhere)).toEqual({ tools: [], attributed: false });
  });

  it('toolSchemaRejection marks a rejection attributed only when the adapter attributes every named tool', () => {
    const adapter = {
      provider: 'openai',
      toolsNamedInRejection: (error: unknown, sent: readonly WireTool[]) => openai(error, sent),
      toolsAttributedInRejection: (error: unknown, sent: readonly WireTool[]) =>
        toolsAttributedInRejection(error, sent, OPENAI_FAMILY_DIALECTS),
    };
    const resolve = (wire: string) => ({ name: wire, canTurnOff: true });
    const named = JSON.stringify({ error: { message: "Invalid schema for function 'search_notes': bad" } });
    expect(toolSchemaRejection(adapter, rejection(400, named), tools, resolve)?.attributed).toBe(true);
    const loose = JSON.stringify({ detail: 'tools[3] has an invalid parameters schema' });
    expect(toolSchemaRejection(adapter, rejection(400, loose), tools, resolve)?.attributed).toBe(false);
    // an adapter that cannot say (a host's own) never has its tools left out
    const { toolsAttributedInRejection: _none, ...plain } = adapter;
    expect(toolSchemaRejection(plain, rejection(400, named), tools, resolve)?.attributed).toBe(false);
  });
});

describe('pythonRepr', () => {
  it('prints what Python prints for a JSON value', () => {
    expect(
      pythonRepr({ a: [1, 2.5, true, false, null], "it's": 'say "hi"', q: "it's", n: 'line\nbreak\\' }),
    ).toBe(`{'a': [1, 2.5, True, False, None], "it's": 'say "hi"', 'q': "it's", 'n': 'line\\nbreak\\\\'}`);
  });
});

describe('toolSchemaRejection (what the runtime calls)', () => {
  const sent = toolsFor({ count: 3, names: { 0: 'mcp_notes_search', 2: 'bash' } });
  const adapter = {
    provider: 'gemini',
    toolsNamedInRejection: (error: unknown, tools: readonly WireTool[]) => openai(error, tools),
  };
  const realNames: Record<string, { name: string; canTurnOff: boolean }> = {
    mcp_notes_search: { name: 'mcp/notes/search', canTurnOff: true },
    bash: { name: 'bash', canTurnOff: false },
  };

  it('names the real tools, says whose bug it is and how to keep going', () => {
    const error = rejection(400, gemini('tools[0].function_declarations[0].name: bad'));
    const result = toolSchemaRejection(adapter, error, sent, (wire) => realNames[wire]);
    expect(result).toBeInstanceOf(ToolSchemaRejected);
    expect(result?.tools).toEqual([{ name: 'mcp/notes/search', canTurnOff: true }]);
    expect(result?.provider).toBe('gemini');
    expect(result?.cause).toBe(error);
    expect(result?.message).toContain('"mcp/notes/search"');
    expect(result?.message).toContain('not something you did');
    expect(result?.message).toContain('switch that tool off on the Tools page');
  });

  it('leaves out the way to keep going when a named tool cannot be turned off', () => {
    const error = rejection(
      400,
      gemini(
        'tools[0].function_declarations[0].name: bad\n* GenerateContentRequest.tools[0].function_declarations[2].name: bad',
      ),
    );
    const result = toolSchemaRejection(adapter, error, sent, (wire) => realNames[wire]);
    expect(result?.tools.map((t) => t.name)).toEqual(['mcp/notes/search', 'bash']);
    expect(result?.message).toContain('"mcp/notes/search" and "bash" tools');
    expect(result?.message).not.toContain('off and send');
  });

  it('is undefined for an error about no tool', () => {
    expect(
      toolSchemaRejection(adapter, rejection(429, '{}'), sent, (wire) => realNames[wire]),
    ).toBeUndefined();
  });
});
