import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isPlainObject } from '../core/json.js';
import { jsonTextOf } from '../core/json-text-of.js';
import type { StopReason, WireTool } from '../core/model.js';
import { pieces } from './answer.js';
import { writeStreamErrorFrame, writeStreamEvent, writeStreamException } from './bedrock-event-stream.js';
import { bedrockFailure } from './bedrock-rules.js';
import { type BlockReading, blockMessages } from './block-messages.js';
import { overflowMessage } from './overflow-answers.js';
import type { NeutralRequest } from './recorded-request.js';
import {
  cutStream,
  type FamilyWire,
  type Rejection,
  type ReplyAnswer,
  type Route,
  type WireAnswer,
} from './wire-answer.js';

const STOP: Readonly<Record<StopReason, string>> = {
  end_turn: 'end_turn',
  tool_use: 'tool_use',
  max_tokens: 'max_tokens',
  stop_sequence: 'stop_sequence',
  content_filter: 'content_filtered',
  other: 'malformed_model_output',
};

const EXCEPTIONS: Readonly<Record<number, string>> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

function textOf(blocks: unknown): string {
  if (!Array.isArray(blocks)) return '';
  return blocks
    .map((b) =>
      isPlainObject(b) && typeof b['text'] === 'string'
        ? b['text']
        : isPlainObject(b) && 'json' in b
          ? JSON.stringify(b['json'])
          : '',
    )
    .join('');
}

function readBlock(b: Record<string, unknown>): BlockReading {
  if (typeof b['text'] === 'string') return { text: b['text'] };
  const use = b['toolUse'];
  if (isPlainObject(use))
    return {
      call: { id: String(use['toolUseId'] ?? ''), name: String(use['name'] ?? ''), input: use['input'] },
    };
  const result = b['toolResult'];
  if (isPlainObject(result)) {
    return {
      result: {
        id: String(result['toolUseId'] ?? ''),
        content: textOf(result['content']),
        isError: result['status'] === 'error',
      },
    };
  }
  return {};
}

/** A Converse body, provider-neutral (the model and streaming come from the path). */
export function parseBedrockRequest(body: unknown, route: Route): NeutralRequest {
  const b = isPlainObject(body) ? body : {};
  const config = isPlainObject(b['toolConfig']) ? b['toolConfig'] : {};
  const tools: WireTool[] = (Array.isArray(config['tools']) ? config['tools'] : []).flatMap((t) => {
    const spec = isPlainObject(t) ? t['toolSpec'] : undefined;
    if (!isPlainObject(spec)) return [];
    const schema = isPlainObject(spec['inputSchema']) ? spec['inputSchema']['json'] : undefined;
    return [
      {
        name: String(spec['name'] ?? ''),
        description: String(spec['description'] ?? ''),
        parameters: isPlainObject(schema) ? schema : {},
      },
    ];
  });
  return {
    model: route.model ?? '',
    stream: route.stream === true,
    system: textOf(b['system']),
    messages: blockMessages(Array.isArray(b['messages']) ? b['messages'] : [], readBlock),
    tools,
  };
}

function errorAnswer(
  status: number,
  name: string,
  message: string,
  extra: Record<string, string> = {},
): WireAnswer {
  return {
    status,
    headers: {
      'content-type': 'application/json',
      'x-amzn-errortype': `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      'x-amzn-requestid': randomUUID(),
      ...extra,
    },
    body: JSON.stringify({ message }),
  };
}

function invalid(message: string, reason: string): Rejection {
  return { answer: errorAnswer(400, 'ValidationException', message), reason };
}

/** The Bedrock Converse / ConverseStream stand-in (speaks HTTP/1.1; give the client a `NodeHttpHandler`). */
export function bedrockWire(): FamilyWire {
  return {
    family: 'bedrock',
    basePath: '',
    route(method, path) {
      const match = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(path);
      if (method !== 'POST' || !match) return undefined;
      return {
        kind: 'chat',
        model: decodeURIComponent(match[1] ?? ''),
        stream: match[2] === 'converse-stream',
      };
    },
    parse: (body, route) => parseBedrockRequest(body, route),
    validate(body, route) {
      if (!isPlainObject(body)) return invalid('The request body must be a JSON object.', 'body');
      const failure = bedrockFailure(body, route.model ?? '');
      return failure ? invalid(failure, 'validation') : undefined;
    },
    rejectTool: (index, tool) =>
      invalid(
        `The json schema definition at toolConfig.tools.${index}.toolSpec.inputSchema is invalid. Fix the following errors and try again: $: refused by the stand-in as instructed`,
        `told to reject ${tool.name}`,
      ),
    error(error) {
      if (error.overflow) return errorAnswer(400, 'ValidationException', overflowMessage('bedrock'));
      const name =
        EXCEPTIONS[error.status] ?? (error.status >= 500 ? 'InternalServerException' : 'ValidationException');
      const message =
        error.message ??
        (error.status === 429
          ? 'Too many requests, please wait before trying again.'
          : `The stand-in answered ${error.status} as scripted.`);
      return errorAnswer(
        error.status,
        name,
        message,
        error.retryAfter === undefined ? {} : { 'retry-after': String(error.retryAfter) },
      );
    },
    unreadable: (detail) =>
      errorAnswer(400, 'SerializationException', `The request body is not valid JSON: ${detail}`),
    reply(answer, request, res) {
      if (request.stream) streamReply(answer, res);
      else wholeReply(answer, res);
    },
    streamError(answer, _request, res) {
      startStream(res);
      writeStreamEvent(res, 'messageStart', { role: 'assistant' });
      if (answer.text !== '')
        writeStreamEvent(res, 'contentBlockDelta', { contentBlockIndex: 0, delta: { text: answer.text } });
      const message = answer.message ?? 'The model failed mid-answer.';
      if (answer.frame === 'error') writeStreamErrorFrame(res, answer.code ?? 'InternalFailure', message);
      else writeStreamException(res, answer.code ?? 'internalServerException', message);
      res.end();
    },
  };
}

function stopOf(answer: ReplyAnswer): string {
  return answer.rawStopReason ?? STOP[answer.stopReason];
}

function usageOf(answer: ReplyAnswer) {
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = answer.usage;
  // as Anthropic's: inputTokens leaves out what was read from or written to the cache
  return {
    inputTokens: inputTokens - (cacheReadTokens ?? 0) - (cacheWriteTokens ?? 0),
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    ...(cacheReadTokens === undefined ? {} : { cacheReadInputTokens: cacheReadTokens }),
    ...(cacheWriteTokens === undefined ? {} : { cacheWriteInputTokens: cacheWriteTokens }),
  };
}

function wholeReply(answer: ReplyAnswer, res: ServerResponse): void {
  const content: unknown[] = [];
  if (answer.text !== '') content.push({ text: answer.text });
  for (const call of answer.toolCalls) {
    let input: unknown = {};
    try {
      input = JSON.parse(call.arguments);
    } catch {
      // a deliberately broken argument text cannot travel as an input document; an empty one stands in
    }
    content.push({ toolUse: { toolUseId: call.id, name: call.name, input } });
  }
  // jsonTextOf: a script's arguments may nest deeper than JSON.stringify can write
  const body = jsonTextOf({
    output: { message: { role: 'assistant', content } },
    stopReason: stopOf(answer),
    usage: usageOf(answer),
    metrics: { latencyMs: 1 },
  });
  res.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() });
  res.end(body);
}

function startStream(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'application/vnd.amazon.eventstream',
    'x-amzn-requestid': randomUUID(),
  });
}

function streamReply(answer: ReplyAnswer, res: ServerResponse): void {
  startStream(res);
  writeStreamEvent(res, 'messageStart', { role: 'assistant' });
  let index = 0;
  if (answer.text !== '') {
    // text blocks come without a contentBlockStart, as Bedrock sends them
    for (const text of pieces(answer.text, answer.chunkSize)) {
      writeStreamEvent(res, 'contentBlockDelta', { contentBlockIndex: index, delta: { text } });
    }
    writeStreamEvent(res, 'contentBlockStop', { contentBlockIndex: index });
    index += 1;
  }
  for (const call of answer.toolCalls) {
    writeStreamEvent(res, 'contentBlockStart', {
      contentBlockIndex: index,
      start: { toolUse: { toolUseId: call.id, name: call.name } },
    });
    for (const input of pieces(call.arguments, answer.chunkSize)) {
      writeStreamEvent(res, 'contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input } } });
    }
    writeStreamEvent(res, 'contentBlockStop', { contentBlockIndex: index });
    index += 1;
  }
  if (answer.cutOff) {
    cutStream(res, answer.cutOff);
    return;
  }
  writeStreamEvent(res, 'messageStop', { stopReason: stopOf(answer) });
  writeStreamEvent(res, 'metadata', { usage: usageOf(answer), metrics: { latencyMs: 1 } });
  res.end();
}
