import { afterEach, describe, expect, it } from 'vitest';
import { closeStandIns, standIn } from './stand-in-fixtures.js';

afterEach(closeStandIns);

async function post(url: string, body: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function openaiBody(tools: unknown[]) {
  return { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools };
}

function fn(name: string, parameters: unknown, description = 'd') {
  return { type: 'function', function: { name, description, parameters } };
}

const OBJECT = { type: 'object', properties: { q: { type: 'string' } } };

describe('the OpenAI stand-in validates as OpenAI does', () => {
  it.each([
    [
      'a name outside the pattern',
      [fn('ok', OBJECT), fn('has space', OBJECT)],
      'tools[1].function.name',
      'invalid_value',
      "Invalid 'tools[1].function.name': string does not match pattern.",
    ],
    [
      'a name over 64 characters',
      [fn('n'.repeat(65), OBJECT)],
      'tools[0].function.name',
      'string_above_max_length',
      'maximum length 64, but got a string with length 65',
    ],
    [
      'a description over 1,024 characters',
      [fn('ok', OBJECT, 'd'.repeat(1025))],
      'tools[0].function.description',
      'string_above_max_length',
      'maximum length 1024',
    ],
    [
      'an array without items',
      [fn('lister', { type: 'object', properties: { tags: { type: 'array' } } })],
      'tools[0].function.parameters',
      'invalid_function_parameters',
      "Invalid schema for function 'lister': In context=('properties', 'tags'), array schema missing items.",
    ],
    [
      'a root that is not an object',
      [fn('rooted', { type: 'string' })],
      'tools[0].function.parameters',
      'invalid_function_parameters',
      'got \'type: "string"\'',
    ],
    [
      'more than 128 tools',
      Array.from({ length: 129 }, (_, i) => fn(`t${i}`, OBJECT)),
      'tools',
      'array_above_max_length',
      'maximum length 128',
    ],
  ])('refuses %s', async (_label, tools, param, code, text) => {
    const s = await standIn({ family: 'openai' });
    const answer = await post(`${s.baseURL}/chat/completions`, openaiBody(tools));
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.text.startsWith('{\n  "error": {\n    "message": ')).toBe(true);
    expect(answer.text.endsWith('}')).toBe(true);
    const error = JSON.parse(answer.text).error;
    expect(error).toMatchObject({ type: 'invalid_request_error', param, code });
    expect(error.message).toContain(text);
    expect(s.requests[0]?.outcome.kind).toBe('rejected');
  });

  it('refuses a tool message that answers no call, and accepts a well-formed conversation', async () => {
    const s = await standIn({ family: 'openai', script: [{ text: 'fine' }] });
    const orphan = await post(`${s.baseURL}/chat/completions`, {
      model: 'm',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'tool', tool_call_id: 'call_9', content: 'x' },
      ],
    });
    expect(orphan.status).toBe(400);
    const ok = await post(`${s.baseURL}/chat/completions`, openaiBody([fn('ok', OBJECT)]));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text).choices[0].message.content).toBe('fine');
  });
});

describe('gemini mode applies Gemini’s rules to an OpenAI request', () => {
  async function geminiAnswer(tools: unknown[], extra: Record<string, unknown> = {}) {
    const s = await standIn({ family: 'openai', mode: 'gemini', script: [{ text: 'accepted' }] });
    expect(s.baseURL.endsWith('/v1beta/openai')).toBe(true);
    return post(`${s.baseURL}/chat/completions`, { ...openaiBody(tools), ...extra });
  }

  it('refuses an array without items in Gemini’s array envelope, naming the declaration and property', async () => {
    const answer = await geminiAnswer([
      fn('ok', OBJECT),
      fn('project_run_create', { type: 'object', properties: { deliverables: { type: 'array' } } }),
    ]);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(answer.text.startsWith('[\n  {\n    "error": {')).toBe(true);
    expect(JSON.parse(answer.text)).toEqual([
      {
        error: {
          code: 400,
          message:
            '* GenerateContentRequest.tools[0].function_declarations[1].parameters.properties[deliverables].items: missing field.\n',
          status: 'INVALID_ARGUMENT',
        },
      },
    ]);
  });

  it('refuses JSON-Schema keywords Gemini’s Schema lacks, by property position, with field violations', async () => {
    const answer = await geminiAnswer([
      fn('f', {
        type: 'object',
        properties: {
          a: { type: 'string' },
          b: { type: 'object', properties: { c: { type: 'string' } }, additionalProperties: false },
        },
      }),
    ]);
    const [{ error }] = JSON.parse(answer.text);
    expect(error.message).toBe(
      `Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters.properties[1].value': Cannot find field.`,
    );
    expect(error.details[0].fieldViolations[0].field).toBe(
      'tools[0].function_declarations[0].parameters.properties[1].value',
    );
  });

  it.each([
    [
      'a name starting with a digit',
      [fn('9lives', OBJECT)],
      'function_declarations[0].name: Invalid function name.',
    ],
    [
      'an enum on an integer',
      [fn('f', { type: 'object', properties: { n: { type: 'integer', enum: ['1'] } } })],
      'properties[n].enum: only allowed for STRING type',
    ],
    [
      'a nested object without properties',
      [fn('f', { type: 'object', properties: { o: { type: 'object' } } })],
      'properties[o].properties: should be non-empty for OBJECT type',
    ],
    [
      'a required name not declared',
      [fn('f', { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] })],
      'parameters.required[0]: property is not defined',
    ],
    [
      'an untyped property',
      [fn('f', { type: 'object', properties: { a: { description: 'x' } } })],
      'properties[a].type: must be specified',
    ],
  ])('refuses %s', async (_label, tools, text) => {
    const answer = await geminiAnswer(tools);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)[0].error.message).toContain(text);
  });

  it('refuses an OpenAI field Gemini does not know, and accepts an argument-less tool’s empty object', async () => {
    const unknown = await geminiAnswer([fn('f', OBJECT)], { web_search_options: {} });
    expect(JSON.parse(unknown.text)[0].error.message).toBe(
      'Invalid JSON payload received. Unknown name "web_search_options": Cannot find field.',
    );
    const empty = await geminiAnswer([fn('get_time', { type: 'object', properties: {} })]);
    expect(empty.status).toBe(200);
  });
});

describe('the Anthropic stand-in validates as the Messages API does', () => {
  async function anthropicAnswer(tools: unknown[], messages: unknown[] = [{ role: 'user', content: 'hi' }]) {
    const s = await standIn({ family: 'anthropic', script: [{ text: 'accepted' }] });
    return post(`${s.url}/v1/messages`, { model: 'c', max_tokens: 10, messages, tools });
  }
  const tool = (name: string, input_schema: unknown) => ({ name, description: 'd', input_schema });

  it.each([
    [
      'a name of 129 characters',
      [tool('n'.repeat(129), OBJECT)],
      'tools.0.custom.name: String should have at most 128 characters',
    ],
    [
      'a name outside the pattern',
      [tool('ok', OBJECT), tool('a.b', OBJECT)],
      "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
    ],
    [
      'a schema without type',
      [tool('ok', { properties: {} })],
      'tools.0.custom.input_schema.type: Field required',
    ],
    [
      'a top-level anyOf',
      [tool('ok', { type: 'object', anyOf: [OBJECT] })],
      'tools.0.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level',
    ],
    [
      'an invalid JSON schema',
      [tool('ok', { type: 'object', properties: { a: { type: 'any' } } })],
      'tools.0.custom.input_schema: JSON schema is invalid.',
    ],
  ])('refuses %s (compact body, request-id header matching the body)', async (_label, tools, text) => {
    const answer = await anthropicAnswer(tools);
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.text);
    expect(answer.text).toBe(JSON.stringify(body));
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message.startsWith(text)).toBe(true);
    expect(answer.headers.get('request-id')).toBe(body.request_id);
  });

  it('accepts an array without items (valid JSON Schema); refuses a tool_result without its tool_use, or without tools', async () => {
    expect(
      (await anthropicAnswer([tool('ok', { type: 'object', properties: { t: { type: 'array' } } })])).status,
    ).toBe(200);
    const result = [
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'r' }] },
    ];
    const stray = await anthropicAnswer([tool('ok', OBJECT)], result);
    expect(JSON.parse(stray.text).error.message).toContain('unexpected `tool_use_id`');
    const toolless = await anthropicAnswer([], result);
    expect(toolless.status).toBe(400);
    expect(JSON.parse(toolless.text).error.message).toBe(
      'Requests which include tool_use or tool_result blocks must define tools.',
    );
  });
});

describe('the Bedrock stand-in validates as Converse does', () => {
  async function bedrockAnswer(tools: unknown[], model = 'amazon.nova-lite-v1:0') {
    const s = await standIn({ family: 'bedrock', script: [{ text: 'accepted' }] });
    return post(`${s.url}/model/${encodeURIComponent(model)}/converse`, {
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
      toolConfig: { tools },
    });
  }
  const spec = (name: string, json: unknown, description: string | undefined = 'd') => ({
    toolSpec: { name, ...(description === undefined ? {} : { description }), inputSchema: { json } },
  });

  it('lists Coral constraint failures together, counting tools from 1, with the error-type header', async () => {
    const answer = await bedrockAnswer([spec('fine', OBJECT), spec('', OBJECT, '')]);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('x-amzn-errortype')).toBe(
      'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
    );
    expect(answer.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(answer.text).message).toBe(
      "3 validation errors detected: Value '' at 'toolConfig.tools.2.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+; Value '' at 'toolConfig.tools.2.member.toolSpec.name' failed to satisfy constraint: Member must have length greater than or equal to 1; Value '' at 'toolConfig.tools.2.member.toolSpec.description' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
  });

  it('refuses a root that is not an object (counting from 0), and a top-level union for Claude models only', async () => {
    const root = await bedrockAnswer([spec('a', OBJECT), spec('b', { type: 'string' })]);
    expect(JSON.parse(root.text).message).toBe(
      'The value at toolConfig.tools.1.toolSpec.inputSchema.json.type must be one of the following: object.',
    );
    const union = { type: 'object', anyOf: [OBJECT] };
    expect((await bedrockAnswer([spec('a', union)])).status).toBe(200);
    const claude = await bedrockAnswer([spec('a', union)], 'anthropic.claude-sonnet-v1:0');
    expect(JSON.parse(claude.text).message).toContain(
      'The model returned the following errors: tools.0.custom.input_schema',
    );
  });

  it("relays a Claude model's refusal of a property key as the model's error, as it does a union", async () => {
    const keyed = { type: 'object', properties: { 'Account Number': { type: 'string' } } };
    expect((await bedrockAnswer([spec('a', keyed)])).status).toBe(200);
    const claude = await bedrockAnswer([spec('a', OBJECT), spec('b', keyed)], 'anthropic.claude-sonnet-v1:0');
    expect(claude.status).toBe(400);
    expect(JSON.parse(claude.text).message).toBe(
      "The model returned the following errors: tools.1.custom.input_schema.properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'",
    );
  });
});
