import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { isPlainObject } from '../core/json.js';
import type { ChatMessage, StopReason, WireTool } from '../core/model.js';
import { pieces } from './answer.js';
import { type GeminiFailure, geminiFailure } from './gemini-rules.js';
import { type OpenAIFailure, openaiMessageFailure, openaiToolFailure } from './openai-rules.js';
import { overflowMessage } from './overflow-answers.js';
import type { NeutralRequest } from './recorded-request.js';
import type { ScriptError } from './script.js';
import { startEventStream, writeEvent } from './sse.js';
import { ThoughtSignatures } from './thought-signatures.js';
import {
  cutStream,
  type FamilyWire,
  pretty,
  type Rejection,
  type ReplyAnswer,
  type WireAnswer,
} from './wire-answer.js';

const FINISH: Readonly<Record<StopReason, string>> = {
  end_turn: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  stop_sequence: 'stop',
  content_filter: 'content_filter',
  other: 'other',
};

const GOOGLE_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isPlainObject(part) && typeof part['text'] === 'string' ? part['text'] : ''))
    .join('');
}

/** An OpenAI Chat Completions body, provider-neutral. */
export function parseOpenAIRequest(body: unknown): NeutralRequest {
  const b = isPlainObject(body) ? body : {};
  const system: string[] = [];
  const messages: ChatMessage[] = [];
  const names = new Map<string, string>();
  for (const m of Array.isArray(b['messages']) ? b['messages'] : []) {
    if (!isPlainObject(m)) continue;
    const role = m['role'];
    if (role === 'system' || role === 'developer') system.push(textOf(m['content']));
    else if (role === 'user') messages.push({ role: 'user', content: textOf(m['content']) });
    else if (role === 'assistant') {
      const toolCalls = (Array.isArray(m['tool_calls']) ? m['tool_calls'] : [])
        .filter(isPlainObject)
        .map((c) => {
          const fn = isPlainObject(c['function']) ? c['function'] : {};
          const call = {
            id: String(c['id'] ?? ''),
            name: String(fn['name'] ?? ''),
            arguments: String(fn['arguments'] ?? ''),
          };
          names.set(call.id, call.name);
          return call;
        });
      messages.push({
        role: 'assistant',
        content: textOf(m['content']),
        ...(toolCalls.length ? { toolCalls } : {}),
      });
    } else if (role === 'tool') {
      const id = String(m['tool_call_id'] ?? '');
      const name = typeof m['name'] === 'string' ? m['name'] : (names.get(id) ?? '');
      messages.push({ role: 'tool', toolCallId: id, name, content: textOf(m['content']), isError: false });
    }
  }
  const tools: WireTool[] = (Array.isArray(b['tools']) ? b['tools'] : []).map((t) => {
    const fn = isPlainObject(t) && isPlainObject(t['function']) ? t['function'] : {};
    return {
      name: String(fn['name'] ?? ''),
      description: typeof fn['description'] === 'string' ? fn['description'] : '',
      parameters: isPlainObject(fn['parameters']) ? fn['parameters'] : {},
    };
  });
  return {
    model: String(b['model'] ?? ''),
    stream: b['stream'] === true,
    system: system.join('\n'),
    messages,
    tools,
  };
}

function requestHeaders(gemini: boolean): Record<string, string> {
  return gemini ? {} : { 'x-request-id': `req_${randomUUID().replaceAll('-', '')}` };
}

function openaiAnswer(
  status: number,
  failure: OpenAIFailure & { type?: string },
  extra: Record<string, string> = {},
): WireAnswer {
  const error = {
    message: failure.message,
    type: failure.type ?? 'invalid_request_error',
    param: failure.param,
    code: failure.code,
  };
  return {
    status,
    headers: { 'content-type': 'application/json', ...requestHeaders(false), ...extra },
    body: pretty({ error }),
  };
}

function geminiAnswer(
  status: number,
  failure: GeminiFailure & { retryAfter?: number | undefined },
  extra: Record<string, string> = {},
): WireAnswer {
  // Gemini sends no retry-after header: the wait is a RetryInfo detail in the body
  const details = failure.violations
    ? [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: failure.violations }]
    : failure.retryAfter !== undefined
      ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${failure.retryAfter}s` }]
      : undefined;
  const error = {
    code: status,
    message: failure.message,
    status: GOOGLE_STATUS[status] ?? 'UNKNOWN',
    ...(details ? { details } : {}),
  };
  return {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8', ...extra },
    body: pretty([{ error }]),
  };
}

function completionId(): string {
  return `chatcmpl-${randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

/** The OpenAI Chat Completions stand-in; `gemini` mode applies Gemini's rules, shapes and stream quirks. */
export function openaiWire(mode: 'openai' | 'gemini'): FamilyWire {
  const gemini = mode === 'gemini';
  const signatures = gemini ? new ThoughtSignatures() : undefined;
  const reject = (failure: OpenAIFailure | GeminiFailure, reason: string): Rejection => ({
    answer: gemini ? geminiAnswer(400, failure) : openaiAnswer(400, failure as OpenAIFailure),
    reason,
  });
  return {
    family: 'openai',
    basePath: gemini ? '/v1beta/openai' : '/v1',
    route(method, path) {
      if (method === 'POST' && path.endsWith('/chat/completions')) return { kind: 'chat' };
      if (method === 'GET' && path.endsWith('/models')) return { kind: 'models' };
      return undefined;
    },
    parse: (body) => parseOpenAIRequest(body),
    validate(body) {
      if (!isPlainObject(body))
        return reject(
          { message: 'The request body must be a JSON object.', param: null, code: null },
          'body',
        );
      if (gemini) {
        const failure = geminiFailure(body) ?? signatures?.missing(body);
        if (failure) return reject(failure, 'gemini rules');
      } else {
        const failure = openaiToolFailure(body['tools']);
        if (failure) return reject(failure, `tools: ${failure.code ?? 'invalid'}`);
      }
      if (typeof body['model'] !== 'string' || body['model'] === '') {
        return reject({ message: 'You must provide a model parameter.', param: null, code: null }, 'model');
      }
      const failure = openaiMessageFailure(body['messages']);
      return failure ? reject(failure, 'messages') : undefined;
    },
    rejectTool(index, tool) {
      if (gemini) {
        const line = `* GenerateContentRequest.tools[0].function_declarations[${index}].parameters: refused by the stand-in as instructed\n`;
        return reject({ message: line }, `told to reject ${tool.name}`);
      }
      return reject(
        {
          message: `Invalid schema for function '${tool.name}': In context=(), refused by the stand-in as instructed.`,
          param: `tools[${index}].function.parameters`,
          code: 'invalid_function_parameters',
        },
        `told to reject ${tool.name}`,
      );
    },
    error(error: ScriptError) {
      if (error.overflow) {
        const message = overflowMessage(gemini ? 'gemini' : 'openai');
        if (gemini) return geminiAnswer(400, { message });
        return openaiAnswer(400, { message, param: 'messages', code: 'context_length_exceeded' });
      }
      const extra: Record<string, string> =
        error.retryAfter === undefined ? {} : { 'retry-after': String(error.retryAfter) };
      const message =
        error.message ??
        (error.status === 429
          ? 'Rate limit reached; try again later.'
          : `The stand-in answered ${error.status} as scripted.`);
      if (gemini) return geminiAnswer(error.status, { message, retryAfter: error.retryAfter });
      const type =
        error.status === 429 ? 'requests' : error.status >= 500 ? 'server_error' : 'invalid_request_error';
      const code = error.status === 429 ? 'rate_limit_exceeded' : null;
      return openaiAnswer(error.status, { message, param: null, code, type }, extra);
    },
    unreadable(detail) {
      const message = `We could not parse the JSON body of your request (${detail}).`;
      return gemini
        ? geminiAnswer(400, { message })
        : openaiAnswer(400, { message, param: null, code: null });
    },
    models(model) {
      const body = JSON.stringify({
        object: 'list',
        data: [{ id: model, object: 'model', created: 0, owned_by: 'toolseam-stand-in' }],
      });
      return { status: 200, headers: { 'content-type': 'application/json' }, body };
    },
    reply(answer, request, res) {
      if (request.stream) streamReply(answer, request, res, signatures);
      else wholeReply(answer, request, res, signatures);
    },
    streamError(answer, request, res) {
      startEventStream(res, requestHeaders(gemini));
      const id = completionId();
      const base = { id, object: 'chat.completion.chunk', created: 0, model: request.model };
      for (const text of pieces(answer.text, 8))
        writeEvent(res, { ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
      const error = {
        code: answer.code ?? 'server_error',
        message: answer.message ?? 'The model failed mid-answer.',
      };
      writeEvent(res, {
        ...base,
        error,
        choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
      });
      res.end();
    },
  };
}

function finishReason(answer: ReplyAnswer, gemini: boolean): string {
  if (answer.rawStopReason !== undefined) return answer.rawStopReason;
  // Gemini's compatible endpoint ends streamed tool turns with "stop"
  if (gemini && answer.stopReason === 'tool_use') return 'stop';
  return FINISH[answer.stopReason];
}

function usageOf(answer: ReplyAnswer) {
  const { inputTokens, outputTokens, cacheReadTokens } = answer.usage;
  return {
    // OpenAI's prompt_tokens counts the cached ones too; the details say how many of them were
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    ...(cacheReadTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: cacheReadTokens } }),
  };
}

function wholeReply(
  answer: ReplyAnswer,
  request: NeutralRequest,
  res: ServerResponse,
  signatures: ThoughtSignatures | undefined,
): void {
  const gemini = signatures !== undefined;
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: answer.text === '' && answer.toolCalls.length ? null : answer.text,
  };
  if (answer.toolCalls.length > 0) {
    message['tool_calls'] = answer.toolCalls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
      ...(signatures ? { extra_content: signatures.issue(c.id) } : {}),
    }));
  }
  const body = JSON.stringify({
    id: completionId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      { index: 0, message, finish_reason: answer.rawStopReason ?? FINISH[answer.stopReason], logprobs: null },
    ],
    usage: usageOf(answer),
  });
  res.writeHead(200, { 'content-type': 'application/json', ...requestHeaders(gemini) });
  res.end(body);
}

function streamReply(
  answer: ReplyAnswer,
  request: RecordedRequestLike,
  res: ServerResponse,
  signatures: ThoughtSignatures | undefined,
): void {
  const gemini = signatures !== undefined;
  startEventStream(res, requestHeaders(gemini));
  const base = {
    id: completionId(),
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
  };
  const chunk = (delta: unknown, finish: string | null = null) =>
    writeEvent(res, { ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  chunk({ role: 'assistant', content: '' });
  for (const text of pieces(answer.text, answer.chunkSize)) chunk({ content: text });
  answer.toolCalls.forEach((call, index) => {
    if (signatures) {
      // Gemini sends each call whole, without an index, with the signature it wants back
      chunk({
        tool_calls: [
          {
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.arguments },
            extra_content: signatures.issue(call.id),
          },
        ],
      });
      return;
    }
    chunk({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
    });
    for (const part of pieces(call.arguments, answer.chunkSize))
      chunk({ tool_calls: [{ index, function: { arguments: part } }] });
  });
  if (answer.cutOff) {
    cutStream(res, answer.cutOff);
    return;
  }
  chunk({}, finishReason(answer, gemini));
  const options = isPlainObject(request.body) ? request.body['stream_options'] : undefined;
  if (isPlainObject(options) && options['include_usage'] === true)
    writeEvent(res, { ...base, choices: [], usage: usageOf(answer) });
  writeEvent(res, '[DONE]');
  res.end();
}

type RecordedRequestLike = NeutralRequest & { readonly body: unknown };
