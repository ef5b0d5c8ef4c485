import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isPlainObject } from '../../core/json.js';
import { errorText } from '../registry-failures.js';

/**
 * fetch for the Streamable HTTP transport that watches the event stream answering each request: a
 * stream that breaks off (or ends) before the request's answer came, with no event id to resume
 * from, calls `onBrokenOff`. The SDK only reports such a stream as an error and leaves its request
 * waiting for the whole call timeout, as if the server were still working on it.
 */
export function watchAnswerStreams(onBrokenOff: (why: string) => void, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    const id = requestId(init);
    const type = response.headers.get('content-type') ?? '';
    if (id === undefined || response.body === null || !type.startsWith('text/event-stream')) return response;
    const body = watched(response.body, id, (why) => {
      // Our own stop (a close, a cancelled request) is not the server's doing.
      if (init?.signal?.aborted) return;
      // Let what already arrived reach the client before it is told the answer will not come.
      setImmediate(() => onBrokenOff(why));
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

/** `body` passed through as it is, read on the way for the answer to `id` and for event ids. */
function watched(
  body: ReadableStream<Uint8Array>,
  id: string | number,
  brokeOff: (why: string) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // The line being read, in pieces: a long answer arrives in many chunks, and is joined once.
  const pieces: string[] = [];
  let answered = false;
  let resumable = false;
  const line = (text: string): void => {
    if (text.startsWith('id:')) resumable = true;
    else if (text.startsWith('data:') && answers(text.slice(5), id)) answered = true;
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
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (error) {
        controller.error(error);
        if (!answered && !resumable) brokeOff(errorText(error));
        return;
      }
      if (read.done) {
        controller.close();
        if (!answered && !resumable) brokeOff('it ended');
        return;
      }
      if (!answered) scan(read.value);
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
