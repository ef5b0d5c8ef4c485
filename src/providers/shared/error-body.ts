import { isPlainObject } from '../../core/json.js';

/** What a provider's error body says, read from any of the shapes the providers use. */
export interface ErrorBodyFacts {
  /** The human message, when the body has one. */
  readonly message: string | undefined;
  /** The provider's own code or type (e.g. `invalid_function_parameters`, `INVALID_ARGUMENT`). */
  readonly code: string | undefined;
  /** A request id carried in the body (Anthropic's `request_id`). */
  readonly requestId: string | undefined;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function firstDetail(detail: unknown): Record<string, unknown> | undefined {
  return Array.isArray(detail) && isPlainObject(detail[0]) ? detail[0] : undefined;
}

/**
 * Reads OpenAI's `{error:{message,type,code}}`, Gemini's `[{error:{message,status}}]` and
 * `{error:{code,message,status}}`, OpenRouter's `{error:{message,code,metadata:{raw}}}` (the upstream's
 * code wins), Mistral's `{object:"error",message,type,code}` and `{detail:[…]}`, Anthropic's
 * `{type:"error",error:{type,message},request_id}` and Bedrock's `{message}`.
 */
export function errorBodyFacts(raw: string, depth = 0): ErrorBodyFacts {
  let body = parse(raw);
  if (Array.isArray(body)) body = body[0];
  if (!isPlainObject(body)) {
    // a relayed upstream body may be plain text; then the text is the message
    return { message: depth > 0 ? str(raw.trim()) : undefined, code: undefined, requestId: undefined };
  }
  const requestId = str(body['request_id']);
  const inner = body['error'];
  if (isPlainObject(inner)) {
    const metadata = inner['metadata'];
    const upstream =
      isPlainObject(metadata) && typeof metadata['raw'] === 'string' && depth < 2
        ? errorBodyFacts(metadata['raw'], depth + 1)
        : undefined;
    return {
      message: upstream?.message ?? str(inner['message']),
      code: upstream?.code ?? str(inner['code']) ?? str(inner['type']) ?? str(inner['status']),
      requestId,
    };
  }
  const detail =
    firstDetail(body['detail']) ??
    (isPlainObject(body['message']) ? firstDetail(body['message']['detail']) : undefined);
  const message = str(body['message']) ?? (detail ? str(detail['msg']) : undefined);
  const code =
    str(body['code']) ??
    (detail ? str(detail['type']) : undefined) ??
    str(body['type']) ??
    str(body['__type']);
  return { message, code, requestId };
}
