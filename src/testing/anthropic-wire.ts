import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isPlainObject } from '../core/json.js';
import { jsonTextOf } from '../core/json-text-of.js';
import type { StopReason, WireTool } from '../core/model.js';
import { pieces } from './answer.js';
import { anthropicFailure } from './anthropic-rules.js';
import { type BlockReading, blockMessages } from './block-messages.js';
import { overflowMessage } from './overflow-answers.js';
import type { NeutralRequest } from './recorded-request.js';
import type { ScriptUsage } from './script.js';
import { startEventStream, writeEvent } from './sse.js';
import {
  cutStream,
  type FamilyWire,
  type Rejection,
  type ReplyAnswer,
  type WireAnswer,
} from './wire-answer.js';

const STOP: Readonly<Record<StopReason, string>> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  content_filter: 'refusal',
  other: 'pause_turn',
};

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (isPlainObject(b) && b['type'] === 'text' ? String(b['text'] ?? '') : ''))
    .join('');
}

function readBlock(b: Record<string, unknown>): BlockReading {
  if (b['type'] === 'text') return { text: String(b['text'] ?? '') };
  if (b['type'] === 'tool_use')
    return { call: { id: String(b['id'] ?? ''), name: String(b['name'] ?? ''), input: b['input'] } };
  if (b['type'] === 'tool_result') {
    return {
      result: {
        id: String(b['tool_use_id'] ?? ''),
        content: textOf(b['content']),
        isError: b['is_error'] === true,
      },
    };
  }
  return {};
}

/** An Anthropic Messages body, provider-neutral. */
export function parseAnthropicRequest(body: unknown): NeutralRequest {
  const b = isPlainObject(body) ? body : {};
  const tools: WireTool[] = (Array.isArray(b['tools']) ? b['tools'] : []).filter(isPlainObject).map((t) => ({
    name: String(t['name'] ?? ''),
    description: typeof t['description'] === 'string' ? t['description'] : '',
    parameters: isPlainObject(t['input_schema']) ? t['input_schema'] : {},
  }));
  return {
    model: String(b['model'] ?? ''),
    stream: b['stream'] === true,
    system: textOf(b['system']),
    messages: blockMessages(Array.isArray(b['messages']) ? b['messages'] : [], readBlock),
    tools,
  };
}

function requestId(): string {
  return `req_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

function errorAnswer(
  status: number,
  type: string,
  message: string,
  extra: Record<string, string> = {},
): WireAnswer {
  const id = requestId();
  const body = JSON.stringify({ type: 'error', error: { type, message }, request_id: id });
  return { status, headers: { 'content-type': 'application/json', 'request-id': id, ...extra }, body };
}

function invalid(message: string, reason: string): Rejection {
  return { answer: errorAnswer(400, 'invalid_request_error', message), reason };
}

/** The Anthropic Messages API stand-in. */
export function anthropicWire(): FamilyWire {
  return {
    family: 'anthropic',
    basePath: '',
    route: (method, path) => (method === 'POST' && path === '/v1/messages' ? { kind: 'chat' } : undefined),
    parse: (body) => parseAnthropicRequest(body),
    validate(body) {
      if (!isPlainObject(body)) return invalid('The request body must be a JSON object.', 'body');
      const failure = anthropicFailure(body);
      return failure ? invalid(failure, failure.split(':')[0] ?? 'invalid') : undefined;
    },
    rejectTool: (index, tool) =>
      invalid(
        `tools.${index}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.claude.com/en/docs/tool-use.`,
        `told to reject ${tool.name}`,
      ),
    error(error) {
      if (error.overflow) return errorAnswer(400, 'invalid_request_error', overflowMessage('anthropic'));
      const type = ERROR_TYPES[error.status] ?? (error.status >= 500 ? 'api_error' : 'invalid_request_error');
      const message =
        error.message ??
        (error.status === 529 ? 'Overloaded' : `The stand-in answered ${error.status} as scripted.`);
      return errorAnswer(
        error.status,
        type,
        message,
        error.retryAfter === undefined ? {} : { 'retry-after': String(error.retryAfter) },
      );
    },
    unreadable: (detail) =>
      errorAnswer(400, 'invalid_request_error', `The request body is not valid JSON: ${detail}`),
    unreadableText(rawBody) {
      const at = loneHighSurrogateAt(rawBody);
      return at === undefined
        ? undefined
        : `no low surrogate in string: line 1 column ${at + 1} (char ${at})`;
    },
    reply(answer, request, res) {
      if (request.stream) streamReply(answer, request, res);
      else wholeReply(answer, request, res);
    },
    streamError(answer, request, res) {
      startEventStream(res, { 'request-id': requestId() });
      writeEvent(
        res,
        { type: 'message_start', message: messageShell(request.model, { inputTokens: 1, outputTokens: 0 }) },
        'message_start',
      );
      if (answer.text !== '') {
        writeEvent(
          res,
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          'content_block_start',
        );
        writeEvent(
          res,
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: answer.text } },
          'content_block_delta',
        );
      }
      const error = { type: answer.code ?? 'overloaded_error', message: answer.message ?? 'Overloaded' };
      writeEvent(res, { type: 'error', error }, 'error');
      res.end();
    },
  };
}

/** Anthropic's input counts: `input_tokens` leaves out what was read from or written to the cache. */
function inputUsage(usage: ScriptUsage) {
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: usage.inputTokens - read - write,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
  };
}

function messageShell(model: string, usage: ScriptUsage) {
  return {
    id: `msg_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...inputUsage(usage), output_tokens: 1 },
  };
}

function stopOf(answer: ReplyAnswer): string {
  return answer.rawStopReason ?? STOP[answer.stopReason];
}

function wholeReply(answer: ReplyAnswer, request: NeutralRequest, res: ServerResponse): void {
  const content: unknown[] = [];
  if (answer.text !== '') content.push({ type: 'text', text: answer.text });
  for (const call of answer.toolCalls) {
    let input: unknown = {};
    try {
      input = JSON.parse(call.arguments);
    } catch {
      // a deliberately broken argument text cannot travel as an input object; an empty one stands in
    }
    content.push({ type: 'tool_use', id: call.id, name: call.name, input });
  }
  // jsonTextOf: a script's arguments may nest deeper than JSON.stringify can write
  const body = jsonTextOf({
    ...messageShell(request.model, answer.usage),
    content,
    stop_reason: stopOf(answer),
    usage: { ...inputUsage(answer.usage), output_tokens: answer.usage.outputTokens },
  });
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId() });
  res.end(body);
}

function streamReply(answer: ReplyAnswer, request: NeutralRequest, res: ServerResponse): void {
  startEventStream(res, { 'request-id': requestId() });
  const send = (data: { type: string; [key: string]: unknown }) => writeEvent(res, data, data.type);
  send({ type: 'message_start', message: messageShell(request.model, answer.usage) });
  let index = 0;
  if (answer.text !== '') {
    send({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    send({ type: 'ping' });
    for (const text of pieces(answer.text, answer.chunkSize)) {
      send({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    }
    send({ type: 'content_block_stop', index });
    index += 1;
  }
  for (const call of answer.toolCalls) {
    send({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
    });
    for (const partial_json of ['', ...pieces(call.arguments, answer.chunkSize)]) {
      send({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
    }
    send({ type: 'content_block_stop', index });
    index += 1;
  }
  if (answer.cutOff) {
    cutStream(res, answer.cutOff);
    return;
  }
  send({
    type: 'message_delta',
    delta: { stop_reason: stopOf(answer), stop_sequence: null },
    usage: { output_tokens: answer.usage.outputTokens },
  });
  send({ type: 'message_stop' });
  res.end();
}

/** An escaped first half of a surrogate pair with no second half after it. */
const LONE_HIGH = /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})/g;

/**
 * Where JSON text escapes the first half of a surrogate pair with no second half (what JSON.stringify
 * writes for text cut inside an emoji), which the Messages API's JSON reader refuses; undefined when none.
 */
export function loneHighSurrogateAt(json: string): number | undefined {
  for (const match of json.matchAll(LONE_HIGH)) {
    let slashes = 0;
    for (let i = match.index - 1; i >= 0 && json[i] === '\\'; i -= 1) slashes += 1;
    // `\\ud83d` is a backslash and the letters u, d, 8, 3, d, not an escape
    if (slashes % 2 === 0) return match.index;
  }
  return undefined;
}
