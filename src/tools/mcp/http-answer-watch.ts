import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isPlainObject } from '../../core/json.js';
import { errorText } from '../registry-failures.js';

/** Why an answer was given up on: it broke off, or grew past the size toolseam takes. */
export type BrokenAnswer =
  | { readonly kind: 'broke_off'; readonly why: string }
  | { readonly kind: 'oversized' };

/**
 * fetch for the Streamable HTTP transport that watches the answer to each request. An event stream
 * that breaks off (or ends) before the request's answer came, with no event id to resume from, calls
 * `onBrokenOff`: the SDK only reports such a stream as an error and leaves its request waiting for
 * the whole call timeout, as if the server were still working on it. An answer longer than
 * `maxBytes` is cut off there and reported the same way, as a stdio server's would be.
 */
export function watchAnswerStreams(
  maxBytes: number,
  onBrokenOff: (broken: BrokenAnswer) => void,
  base: FetchLike = fetch,
): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    const id = requestId(init);
    if (id === undefined || response.body === null || !response.ok) return response;
    const stream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const body = watched(response.body, { id, stream, maxBytes }, (broken) => {
      // Our own stop (a close, a cancelled request) is not the server's doing.
      if (init?.signal?.aborted) return;
      // Let what already arrived reach the client before it is told the answer will not come.
      setImmediate(() => onBrokenOff(broken));
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

/** The id of the JSON-RPC request a POST carries, else undefined. */
function requestId(init: RequestInit | undefined): string | number | undefined {
  if (init?.method !== 'POST' || typeof init.body !== 'string') return undefined;
  try {
    const message: unknown = JSON.parse(init.body);
    if (!isPlainObject(message) || typeof message.method !== 'string') return undefined;
    return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  } catch {
    return undefined;
  }
}

interface Watch {
  readonly id: string | number;
  /** An event stream (read for the answer and event ids), not a single JSON answer. */
  readonly stream: boolean;
  readonly maxBytes: number;
}

/** `body` passed through as it is, counted, and (an event stream) read for the answer and event ids. */
function watched(
  body: ReadableStream<Uint8Array>,
  { id, stream, maxBytes }: Watch,
  brokeOff: (broken: BrokenAnswer) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // The line being read, in pieces: a long answer arrives in many chunks, and is joined once.
  const pieces: string[] = [];
  let bytes = 0;
  let answered = false;
  let resumable = false;
  // The data lines of the event being read: SSE joins them with "\n" when a blank line ends the event.
  const data: string[] = [];
  const line = (raw: string): void => {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text === '') {
      if (data.length > 0 && answers(data.join('\n'), id)) answered = true;
      data.length = 0;
    } else if (text.startsWith('id:')) resumable = true;
    else if (text.startsWith('data:')) data.push(text.slice(text.startsWith('data: ') ? 6 : 5));
  };
  const scan = (chunk: Uint8Array): void => {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      pieces.push(text.slice(start, end));
      line(pieces.join(''));
      pieces.length = 0;
      start = end + 1;
    }
    if (start < text.length) pieces.push(text.slice(start));
  };
  const unanswered = () => stream && !answered && !resumable;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (error) {
        controller.error(error);
        if (unanswered()) brokeOff({ kind: 'broke_off', why: errorText(error) });
        return;
      }
      if (read.done) {
        controller.close();
        if (unanswered()) brokeOff({ kind: 'broke_off', why: 'it ended' });
        return;
      }
      // A stream answers one request, so all it carries (progress and logs too) counts as that answer.
      bytes += read.value.byteLength;
      if (bytes > maxBytes) {
        void reader.cancel().catch(() => undefined);
        controller.error(new Error(`the answer was larger than toolseam accepts (${maxBytes} bytes)`));
        brokeOff({ kind: 'oversized' });
        return;
      }
      if (stream && !answered) scan(read.value);
      controller.enqueue(read.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function answers(data: string, id: string | number): boolean {
  try {
    const message: unknown = JSON.parse(data);
    return isPlainObject(message) && message.id === id && ('result' in message || 'error' in message);
  } catch {
    return false;
  }
}
