import type { FetchLike } from '../shared/error-body-capture.js';

/** An SSE line whose data is the terminator: `data: [DONE]` (the space after the colon is optional). */
const DONE_LINE = /^data: ?\[DONE\]/;

/** A wrapping `fetch` that notes which streamed answers carried the `data: [DONE]` terminator. */
export interface DoneMarkerWatch {
  readonly fetch: FetchLike;
  /** True when the answer this `Response` (as the wrapping `fetch` returned it) carried `[DONE]`. */
  sawDone(response: unknown): boolean;
}

function isEventStream(response: Response): boolean {
  return response.ok && /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
}

/**
 * Wraps `base` so that each event-stream answer is read through a scanner looking for `data: [DONE]`.
 * The openai SDK reads past that line without a word, so without this a stream the server closed on
 * purpose and one a proxy cut cleanly look alike once they end.
 */
export function watchDoneMarker(base: FetchLike): DoneMarkerWatch {
  const done = new WeakSet<object>();
  return {
    async fetch(input, init) {
      const response = await base(input, init);
      if (!isEventStream(response) || response.body === null) return response;
      const decoder = new TextDecoder();
      let tail = '';
      let copy: Response | undefined;
      const scan = (text: string, final: boolean) => {
        const lines = (tail + text).split(/\r\n|\r|\n/);
        tail = final ? '' : (lines.pop() ?? '');
        if (copy && lines.some((line) => DONE_LINE.test(line))) done.add(copy);
      };
      const scanner = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          controller.enqueue(chunk);
          if (copy && !done.has(copy)) scan(decoder.decode(chunk, { stream: true }), false);
        },
        flush() {
          if (copy && !done.has(copy)) scan(decoder.decode(), true);
        },
      });
      copy = new Response(response.body.pipeThrough(scanner), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
      return copy;
    },
    sawDone(response) {
      return typeof response === 'object' && response !== null && done.has(response);
    },
  };
}
