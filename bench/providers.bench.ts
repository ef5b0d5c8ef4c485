import { EventStreamCodec } from '@smithy/eventstream-codec';
import type { ChatMessage, ModelAdapter, ModelEvent, ModelRequest, WireTool } from '../src/core/model.js';
import { AnthropicAdapter } from '../src/providers/anthropic/anthropic-adapter.js';
import { anthropicBodyBytes } from '../src/providers/anthropic/anthropic-body-bytes.js';
import {
  anthropicForms,
  anthropicMessageForms,
  toAnthropicRequest,
} from '../src/providers/anthropic/anthropic-request.js';
import { AnthropicStreamParser } from '../src/providers/anthropic/anthropic-stream-parser.js';
import { BedrockAdapter } from '../src/providers/bedrock/bedrock-adapter.js';
import { BedrockStreamParser } from '../src/providers/bedrock/bedrock-stream-parser.js';
import { createModelAdapter, FAMILY_DIALECTS, resolveProviderConfig } from '../src/providers/index.js';
import { OpenAIAdapter } from '../src/providers/openai/openai-adapter.js';
import { openAIBodyBytes } from '../src/providers/openai/openai-body-bytes.js';
import { toOpenAIRequest } from '../src/providers/openai/openai-request.js';
import { OpenAIStreamParser } from '../src/providers/openai/openai-stream-parser.js';
import { OpenAIWireCache } from '../src/providers/openai/openai-wire-cache.js';
import { type ScriptTurn, type StandIn, startStandIn } from '../src/testing/index.js';
import type { BenchFigure } from './run.js';

const TOOLS: WireTool[] = Array.from({ length: 48 }, (_, i) => ({
  name: `tool_${i}`,
  description: `Tool ${i}: does one well-described thing with its inputs, for the benchmark.`,
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for.' },
      limit: { type: 'integer', description: 'How many results.', minimum: 1, maximum: 100 },
      tags: { type: 'array', items: { type: 'string' }, description: 'Filters.' },
      exact: { type: 'boolean', description: 'Match exactly.' },
    },
    required: ['query'],
  },
}));

const REQUEST: ModelRequest = {
  system: 'You are a benchmark assistant. Use the tools when they help.',
  messages: [
    {
      role: 'user',
      content: 'Find the three most recent notes about the quarterly plan and summarise them.',
    },
    {
      role: 'assistant',
      content: 'Looking.',
      toolCalls: [{ id: 'call_a', name: 'tool_3', arguments: '{"query":"plan"}' }],
    },
    { role: 'tool', toolCallId: 'call_a', name: 'tool_3', content: 'note 1; note 2; note 3', isError: false },
  ],
  tools: TOOLS,
};

const TURN: ScriptTurn = {
  text: 'Here is what I found so far, and I will look at two more sources before I summarise. '.repeat(4),
  toolCalls: [
    {
      name: 'tool_7',
      arguments: { query: 'quarterly plan notes', limit: 3, tags: ['plan', 'q3'], exact: false },
    },
    {
      name: 'tool_12',
      arguments: { query: 'summary of decisions taken in the last planning meeting', limit: 5 },
    },
  ],
};

/** The chunks each SDK hands its adapter for one answer, read straight off the stand-in's bytes. */
async function capturedChunks(standIn: StandIn, path: string, body: unknown): Promise<unknown[]> {
  standIn.push(TURN);
  const response = await fetch(`${standIn.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (standIn.family === 'bedrock') {
    const codec = new EventStreamCodec(
      (input: Uint8Array | string) =>
        typeof input === 'string' ? input : Buffer.from(input).toString('utf8'),
      (input: string) => new Uint8Array(Buffer.from(input, 'utf8')),
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    const messages: unknown[] = [];
    // each frame starts with its total length (uint32, big-endian)
    for (let at = 0; at < bytes.length; at += bytes.readUInt32BE(at)) {
      const message = codec.decode(bytes.subarray(at, at + bytes.readUInt32BE(at)));
      const type = String(message.headers[':event-type']?.value);
      messages.push({ [type]: JSON.parse(Buffer.from(message.body).toString('utf8')) });
    }
    return messages;
  }
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)));
}

interface Parser {
  push(chunk: never): ModelEvent[];
  finish(): ModelEvent[];
}

function perCallMs(iterations: number, body: () => void): number {
  for (let i = 0; i < Math.min(200, iterations); i += 1) body();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) body();
  return Number(process.hrtime.bigint() - start) / 1e6 / iterations;
}

async function roundTripMs(adapter: ModelAdapter, standIn: StandIn, iterations: number): Promise<number> {
  const run = async () => {
    standIn.push(TURN);
    for await (const _ of adapter.stream(REQUEST)) {
      // drain
    }
  };
  for (let i = 0; i < 20; i += 1) await run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) await run();
  return Number(process.hrtime.bigint() - start) / 1e6 / iterations;
}

/** One turn of a long conversation: a question, a call, its result and the answer. */
function conversationTurn(turn: number): ChatMessage[] {
  const id = `call_${turn}`;
  const args = `{"query":"record r-${turn}","limit":3}`;
  return [
    { role: 'user', content: `Look up record r-${turn} and tell me who owns it.` },
    { role: 'assistant', content: '', toolCalls: [{ id, name: 'tool_3', arguments: args }] },
    {
      role: 'tool',
      toolCallId: id,
      name: 'tool_3',
      content: `{"id":"r-${turn}","owner":"Dana"}`,
      isError: false,
    },
    { role: 'assistant', content: `Record r-${turn} belongs to Dana.` },
  ];
}

/** The conversation's turns when the measured requests begin; it grows by a turn before each request. */
const LONG_FROM = 300;
const LONG_WARM = 50;
const LONG_ROUNDS = 200;

/** A family's wire for one request: its body's bytes, from `cache` when given, else made from scratch. */
type BodyOf = (request: ModelRequest, cached: boolean) => number;

function openaiBody(): BodyOf {
  const cache = new OpenAIWireCache();
  const options = {
    model: 'bench-model',
    stream: true,
    streamUsage: true,
    maxTokensField: 'max_tokens',
    defaultMaxTokens: 1024,
    assistantAfterToolResults: false,
  } as const;
  return (request, cached) => {
    if (!cached) return Buffer.byteLength(JSON.stringify(toOpenAIRequest(request, options)));
    return openAIBodyBytes(toOpenAIRequest(request, options, cache), cache).length;
  };
}

function anthropicBody(): BodyOf {
  const cache = anthropicForms();
  const options = { model: 'bench-model', stream: true, defaultMaxTokens: 1024 };
  return (request, cached) => {
    if (!cached) return Buffer.byteLength(JSON.stringify(toAnthropicRequest(request, options)));
    const forms = anthropicMessageForms(request.messages, false, cache);
    return anthropicBodyBytes(toAnthropicRequest(request, options, forms), forms, cache).length;
  };
}

/** Per request, a conversation that grows by one turn before each: `LONG_FROM` turns to `LONG_FROM + LONG_ROUNDS`. */
function longConversationMs(body: BodyOf, cached: boolean): number {
  const start = LONG_FROM - LONG_WARM;
  const history = Array.from({ length: start }, (_, t) => conversationTurn(t)).flat();
  let bytes = 0;
  const request = (turn: number) => {
    history.push(...conversationTurn(turn));
    bytes += body({ ...REQUEST, messages: history.slice() }, cached);
  };
  for (let turn = start; turn < LONG_FROM; turn += 1) request(turn);
  const t0 = process.hrtime.bigint();
  for (let turn = LONG_FROM; turn < LONG_FROM + LONG_ROUNDS; turn += 1) request(turn);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6 / LONG_ROUNDS;
  if (bytes === 0) throw new Error('a long conversation made no body');
  return ms;
}

/**
 * What each request body of a long conversation costs a family's wire (the messages' forms and the
 * body's bytes), from turn 300 to 500: kept between requests as the adapter keeps them, beside the same
 * body made from scratch (`JSON.stringify` of the request, as the SDK would).
 */
function longConversationFigures(): BenchFigure[] {
  const families: [string, () => BodyOf][] = [
    ['openai', openaiBody],
    ['anthropic', anthropicBody],
  ];
  return families.flatMap(([family, make]) => {
    const kept = longConversationMs(make(), true);
    const scratch = longConversationMs(make(), false);
    return [
      {
        name: `${family}: a request's body at turns ${LONG_FROM}-${LONG_FROM + LONG_ROUNDS} of one conversation, kept`,
        value: kept,
        unit: 'ms',
      },
      { name: '  the same body made from scratch, as the SDK would', value: scratch, unit: 'ms' },
      { name: '  kept ÷ from scratch', value: kept / scratch, unit: '×' },
    ];
  });
}

/** The adapters' own cost per round trip (request build + stream parse) for a 48-tool request. */
export async function bench(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const families = [
    {
      family: 'openai',
      make: (c: ReturnType<typeof resolveProviderConfig>) =>
        new OpenAIAdapter(c, { dialects: FAMILY_DIALECTS.openai }),
      parser: () => new OpenAIStreamParser(),
      path: '/v1/chat/completions',
    },
    {
      family: 'anthropic',
      make: (c: ReturnType<typeof resolveProviderConfig>) =>
        new AnthropicAdapter(c, { dialects: FAMILY_DIALECTS.anthropic }),
      parser: () => new AnthropicStreamParser(),
      path: '/v1/messages',
    },
    {
      family: 'bedrock',
      make: (c: ReturnType<typeof resolveProviderConfig>) =>
        new BedrockAdapter(c, { dialects: FAMILY_DIALECTS.bedrock }),
      parser: () => new BedrockStreamParser(),
      path: '/model/bench-model/converse-stream',
    },
  ] as const;
  for (const f of families) {
    const standIn = await startStandIn({ family: f.family });
    try {
      const config = resolveProviderConfig({ ...standIn.modelConfig('bench-model'), env: {} });
      const adapter = f.make(config);
      const chunks = await capturedChunks(standIn, f.path, adapter.buildRequest(REQUEST));
      let events = 0;
      const overhead = perCallMs(2_000, () => {
        adapter.buildRequest(REQUEST);
        const parser: Parser = f.parser() as unknown as Parser;
        for (const chunk of chunks) events += parser.push(chunk as never).length;
        events += parser.finish().length;
      });
      if (events === 0) throw new Error(`the ${f.family} parser produced no events`);
      figures.push({
        name: `${f.family}: adapter overhead per round trip (48 tools, ${chunks.length} chunks)`,
        value: overhead,
        unit: 'ms',
        target: '< 1 ms',
        ok: overhead < 1,
      });
      const full = await roundTripMs(
        createModelAdapter({ ...standIn.modelConfig('bench-model'), env: {} }),
        standIn,
        100,
      );
      figures.push({
        name: `${f.family}: whole round trip on loopback (SDK + stand-in)`,
        value: full,
        unit: 'ms',
      });
    } finally {
      await standIn.close();
    }
  }
  figures.push(...longConversationFigures());
  return figures;
}
