import type { FetchLike } from '../shared/http-fetch.js';

/** An SSE line whose data is the terminator, `data: [DONE]` (the space is optional), at a line's start. */
const DONE_LINE = /(?:^|[\r\n])data: ?\[DONE\]/;

/** A wrapping `fetch` that notes which streamed answers carried the `data: [DONE]` terminator. */
export interface DoneMarkerWatch {
  readonly fetch: FetchLike;
  /** True when the answer this `Response` (as the wrapping `fetch` returned it) carried `[DONE]`. */
  sawDone(response: unknown): boolean;
}

function isEventStream(response: Response): boolean {
  return response.ok && /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
}

/** Reads the answer's bytes as they pass, calling `found` once a `data: [DONE]` line has gone by. */
function doneScanner(found: () => void): { chunk(bytes: Uint8Array): void; end(): void } {
  const decoder = new TextDecoder();
  let tail = '';
  let seen = false;
  // `tail` (the unfinished last line) always starts a line, so the pattern's `^` is a line's start;
  // searching the text whole spares splitting every chunk into lines
  const scan = (text: string, final: boolean) => {
    const seenText = tail + text;
    if (DONE_LINE.test(seenText)) {
      seen = true;
      found();
      return;
    }
    tail = final ? '' : seenText.slice(Math.max(seenText.lastIndexOf('\n'), seenText.lastIndexOf('\r')) + 1);
  };
  return {
    chunk: (bytes) => {
      if (!seen) scan(decoder.decode(bytes, { stream: true }), false);
    },
    end: () => {
      if (!seen) scan(decoder.decode(), true);
    },
  };
}

type ChunkIterator = AsyncIterator<Uint8Array, undefined, undefined>;

/** `inner`, each chunk shown to `scanner` on its way. */
function scanned(
  inner: ChunkIterator,
  scanner: ReturnType<typeof doneScanner>,
): AsyncIterableIterator<Uint8Array> {
  const watched: AsyncIterableIterator<Uint8Array> = {
    // One promise per chunk (an async function's own and its await's would be two).
    next: () =>
      inner.next().then((step) => {
        if (step.done) scanner.end();
        else scanner.chunk(step.value);
        return step;
      }),
    return: async (value?: undefined) => (inner.return ? inner.return(value) : { done: true, value }),
    [Symbol.asyncIterator]: () => watched,
  };
  return watched;
}

/**
 * Wraps `base` so that each event-stream answer is scanned for `data: [DONE]` as its reader takes it.
 * The openai SDK reads past that line without a word, so without this a stream the server closed on
 * purpose and one a proxy cut cleanly look alike once they end. The SDK iterates a body that is async
 * iterable (as `fetch`'s bodies are in Node), so the scan rides on that iteration; piping the body
 * through a second stream cost each streamed answer a web-stream stage of its own. A body that cannot
 * be iterated so (another `fetch`) is piped through a scanner as before.
 */
export function watchDoneMarker(base: FetchLike): DoneMarkerWatch {
  const done = new WeakSet<object>();
  return {
    async fetch(input, init) {
      const response = await base(input, init);
      const body = response.body as (ReadableStream<Uint8Array> & Partial<AsyncIterable<Uint8Array>>) | null;
      if (!isEventStream(response) || body === null) return response;
      const iterate = body[Symbol.asyncIterator];
      if (typeof iterate === 'function') {
        const scanner = doneScanner(() => done.add(response));
        Object.defineProperty(body, Symbol.asyncIterator, {
          configurable: true,
          value: () => scanned(iterate.call(body) as ChunkIterator, scanner),
        });
        return response;
      }
      return piped(response, done);
    },
    sawDone(response) {
      return typeof response === 'object' && response !== null && done.has(response);
    },
  };
}

/** A copy of `response` whose body passes through a scanner (for a body that is not async iterable). */
function piped(response: Response, done: WeakSet<object>): Response {
  let copy: Response | undefined;
  const scanner = doneScanner(() => {
    if (copy) done.add(copy);
  });
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      scanner.chunk(chunk);
    },
    flush: () => scanner.end(),
  });
  copy = new Response((response.body as ReadableStream<Uint8Array>).pipeThrough(stream), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  return copy;
}
