import type { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError } from '../../core/errors.js';
import { isPlainObject } from '../../core/json.js';
import { isLostConnection } from '../shared/lost-connection.js';
import { httpProviderError, streamProviderError, transportProviderError } from '../shared/provider-errors.js';

/** Socket codes of a connection the other side dropped, which the AWS SDK reports as a TimeoutError. */
const RESET_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE']);

async function bufferBody(response: unknown): Promise<void> {
  if (!isPlainObject(response) || typeof response['statusCode'] !== 'number' || response['statusCode'] < 300)
    return;
  const body = response['body'];
  if (body === undefined || body === null || body instanceof Uint8Array) return;
  if (typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function') return;
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array | string>) chunks.push(Buffer.from(chunk));
  response['body'] = new Uint8Array(Buffer.concat(chunks));
}

/**
 * Keeps the raw body of every error answer: the AWS SDK parses and drops it, but the error it throws
 * carries the response (`$response`), whose body this middleware has read into bytes beforehand.
 */
export function keepErrorBodies(client: BedrockRuntimeClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      await bufferBody(result.response);
      return result;
    },
    { step: 'deserialize', priority: 'low', name: 'toolseamKeepErrorBody' },
  );
}

function rawBodyOf(error: Record<string, unknown>): string | undefined {
  const response = error['$response'];
  if (!isPlainObject(response)) return undefined;
  const body = response['body'];
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return typeof body === 'string' ? body : undefined;
}

function headerReader(error: Record<string, unknown>) {
  const response = error['$response'];
  const headers = isPlainObject(response) && isPlainObject(response['headers']) ? response['headers'] : {};
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
  return (name: string) => lower.get(name.toLowerCase());
}

/** Context the conversion needs beyond the error itself. */
export interface BedrockErrorContext {
  /** The request id of a stream that was already answering (in-stream exceptions carry none). */
  readonly requestId?: string | undefined;
  /** This adapter's own timer aborted the call (rather than the caller's signal). */
  readonly timedOut?: boolean;
  /** The answer's stream had started, so a failure came from its frames. */
  readonly inStream?: boolean;
}

/**
 * The code and message of a failure frame the client has no class for, or undefined. The AWS SDK throws a
 * plain `Error` named after the code for an error frame (`:error-code`, message `:error-message`) and for
 * an exception frame of a type outside its model (`:exception-type`, message the raw `{"message"}` payload).
 */
function unmodeledFrame(error: Error): { code: string; message: string } | undefined {
  if (Object.getPrototypeOf(error) !== Error.prototype || !error.name || error.name === 'Error')
    return undefined;
  let message = error.message;
  try {
    const payload: unknown = JSON.parse(message);
    if (isPlainObject(payload) && typeof payload['message'] === 'string') message = payload['message'];
  } catch {
    // an error frame's message is plain text
  }
  // exception types travel in camel case (modelTimeoutException); the SDK's classes are named in Pascal case
  return { code: error.name.charAt(0).toUpperCase() + error.name.slice(1), message };
}

/** Any error the AWS SDK threw for a Converse call → `ProviderError`, with the raw body kept. */
export function bedrockProviderError(error: unknown, context: BedrockErrorContext = {}): ProviderError {
  const provider = 'bedrock';
  if (error instanceof ProviderError) return error;
  if (!(error instanceof Error)) return transportProviderError(provider, 'unexpected', error);
  const record = error as unknown as Record<string, unknown>;
  const metadata = isPlainObject(record['$metadata']) ? record['$metadata'] : {};
  const status = typeof metadata['httpStatusCode'] === 'number' ? metadata['httpStatusCode'] : undefined;
  const rawBody = rawBodyOf(record);
  if (status !== undefined && status >= 300) {
    const header = headerReader(record);
    return httpProviderError({
      provider,
      status,
      rawBody: rawBody ?? JSON.stringify({ message: error.message }),
      header: (name) =>
        header(name) ?? (name === 'x-amzn-requestid' ? (metadata['requestId'] as string) : undefined),
      fallbackMessage: error.message,
      fallbackCode: error.name,
      cause: error,
    });
  }
  if (error.name === 'AbortError')
    return transportProviderError(provider, context.timedOut ? 'timeout' : 'aborted', error);
  // the AWS SDK renames a socket the server reset or closed (ECONNRESET, EPIPE) to TimeoutError
  if (error.name === 'TimeoutError' && !RESET_CODES.has(String(record['code'])))
    return transportProviderError(provider, 'timeout', error);
  if (isLostConnection(error)) return transportProviderError(provider, 'connection', error);
  // an exception frame inside the stream is typed, with the payload's message and no HTTP status; a
  // failure frame the client has no class for comes as a plain Error named after its code
  const frame =
    typeof record['$fault'] === 'string'
      ? { code: error.name, message: error.message }
      : context.inStream
        ? unmodeledFrame(error)
        : undefined;
  if (frame) {
    return streamProviderError({
      provider,
      code: frame.code,
      message: frame.message,
      rawBody: JSON.stringify({ message: frame.message }),
      requestId: context.requestId,
      cause: error,
    });
  }
  return transportProviderError(provider, 'unexpected', error);
}
