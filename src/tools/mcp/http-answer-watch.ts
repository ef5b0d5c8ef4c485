import type { StreamableHTTPReconnectionOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isPlainObject } from '../../core/json.js';
import { errorText } from '../registry/failure-ledger.js';
import { oversizedAnswer } from './oversized-answer.js';

/** Why an answer was given up on: it broke off before it was complete. */
export type BrokenAnswer = { readonly kind: 'broke_off'; readonly why: string };

/**
 * How the SDK resumes an answer stream that broke off after an event id (the SDK's own defaults,
 * given to it explicitly): the watch counts its failed tries against `maxRetries`.
 */
export const ANSWER_RESUME: StreamableHTTPReconnectionOptions = {
  initialReconnectionDelay: 1_000,
  maxReconnectionDelay: 30_000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 2,
};

/** A request whose answer stream broke off after an event id, which the SDK will try to resume. */
interface Resume {
  readonly id: string | number;
  readonly failures: number;
}

/**
 * fetch for the Streamable HTTP transport that watches the answer to each request. An event stream
 * that breaks off (or ends) before the request's answer came calls `onBrokenOff`: the SDK only reports
 * such a stream as an error and leaves its request waiting for the whole call timeout, as if the server
 * were still working on it. A stream that sent an event id is followed through the SDK's resume
 * (a GET with Last-Event-ID): it is reported once that fails for good (the server refuses it with 405,
 * or every try fails), or the resumed stream breaks off in turn. An answer longer than `maxBytes` is
 * cut off there and replaced by an error answering its request, as a stdio server's is: that request
 * fails and the session goes on (and the SDK's try to resume the cut stream is answered 405 here).
 */
export function watchAnswerStreams(
  maxBytes: number,
  onBrokenOff: (broken: BrokenAnswer) => void,
  base: FetchLike = fetch,
  resumeTries: number = ANSWER_RESUME.maxRetries ?? 2,
): FetchLike {
  /** Requests waiting for their resume, by the event id it resumes from. */
  const resumes = new Map<string, Resume>();
  /** Event ids the SDK may resume a stream toolseam cut off from: not asked for again. */
  const dropped = new Set<string>();
  const report = (init: RequestInit | undefined, broken: BrokenAnswer): void => {
    // Our own stop (a close, a cancelled request) is not the server's doing.
    if (init?.signal?.aborted) return;
    // Let what already arrived reach the client before it is told the answer will not come.
    setImmediate(() => onBrokenOff(broken));
  };
  const follow = (response: Response, id: string | number, init: RequestInit | undefined): Response => {
    if (response.body === null) return response;
    // A resumed stream is read as an event stream whatever it is labelled, as the SDK reads it.
    const stream =
      resumedFrom(init) !== undefined ||
      (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    const body = watched(response.body, { id, stream, maxBytes }, (end) => {
      if (end.kind === 'oversized') {
        if (end.resumeFrom !== undefined) dropped.add(end.resumeFrom);
      } else if (end.resumeFrom !== undefined && resumeTries > 0) {
        resumes.set(end.resumeFrom, { id, failures: 0 });
      } else report(init, { kind: 'broke_off', why: end.why });
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  /** A try at resuming failed: the SDK tries again, or has given up once it failed `resumeTries` times. */
  const failed = (init: RequestInit | undefined, from: string, resume: Resume, why: string): void => {
    if (resume.failures + 1 < resumeTries) resumes.set(from, { ...resume, failures: resume.failures + 1 });
    else report(init, { kind: 'broke_off', why: `it could not be resumed: ${why}` });
  };
  return async (url, init) => {
    const from = resumedFrom(init);
    if (from !== undefined && dropped.delete(from)) return new Response(null, { status: 405 });
    const resume = from === undefined ? undefined : resumes.get(from);
    if (from === undefined || resume === undefined) {
      const response = await base(url, init);
      const id = requestId(init);
      return id === undefined || !response.ok ? response : follow(response, id, init);
    }
    resumes.delete(from);
    let response: Response;
    try {
      response = await base(url, init);
    } catch (error) {
      failed(init, from, resume, reachError(error));
      throw error;
    }
    const answered = `the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    // A redirect is followed by the SDK with the same Last-Event-ID: the resume goes on there.
    if (response.status >= 300 && response.status < 400) resumes.set(from, resume);
    // 405 is the SDK's sign that the server offers no stream to resume: it stops trying at once.
    else if (response.status === 405)
      report(init, { kind: 'broke_off', why: `it could not be resumed: ${answered}` });
    else if (!response.ok) failed(init, from, resume, answered);
    else if (response.body === null)
      report(init, { kind: 'broke_off', why: 'it could not be resumed: the server sent no stream' });
    else return follow(response, resume.id, init);
    return response;
  };
}

/** The event id a GET resumes from (its Last-Event-ID header), else undefined. */
function resumedFrom(init: RequestInit | undefined): string | undefined {
  if ((init?.method ?? 'GET') !== 'GET' || init?.headers === undefined) return undefined;
  return new Headers(init.headers).get('last-event-id') ?? undefined;
}

/** A failed fetch in its socket's words when it has them (`fetch failed (connect ECONNREFUSED …)`). */
function reachError(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error ? `${errorText(error)} (${cause.message})` : errorText(error);
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

/**
 * How an unanswered answer stream ended: it broke off, or grew too large and was cut off (with the last
 * event id the SDK resumes from, when one came).
 */
type StreamEnd = {
  readonly kind: 'broke_off' | 'oversized';
  readonly why: string;
  readonly resumeFrom: string | undefined;
};

/**
 * `body` passed through, counted, and (an event stream) read for the answer and event ids; a single
 * JSON answer is held until it is whole. Past `maxBytes` the rest is not read, and an error answering
 * request `id` takes its place.
 */
function watched(
  body: ReadableStream<Uint8Array>,
  { id, stream, maxBytes }: Watch,
  ended: (end: StreamEnd) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  // The line being read, in pieces: a long answer arrives in many chunks, and is joined once.
  const pieces: string[] = [];
  let bytes = 0;
  let answered = false;
  // The last event id the SDK takes up: a non-empty one, of an event it dispatches (one with data).
  let resumeFrom: string | undefined;
  // The id and data lines of the event being read: SSE joins the data with "\n" when a blank line ends it.
  let eventId: string | undefined;
  const data: string[] = [];
  const line = (raw: string): void => {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text === '') {
      if (data.length > 0) {
        if (answers(data.join('\n'), id)) answered = true;
        if (eventId) resumeFrom = eventId;
      }
      data.length = 0;
      eventId = undefined;
    } else if (text === 'id' || text.startsWith('id:')) {
      const value = text.slice(text.startsWith('id: ') ? 4 : 3);
      if (!value.includes('\0')) eventId = value;
    } else if (text === 'data' || text.startsWith('data:')) {
      data.push(text.slice(text.startsWith('data: ') ? 6 : 5));
    }
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
  const brokeOff = (why: string): void => {
    if (stream && !answered) ended({ kind: 'broke_off', why, resumeFrom });
  };
  // A single JSON answer is read whole by the SDK: held back, it can still be replaced when too large.
  const held: Uint8Array[] = [];
  const cutOff = (controller: ReadableStreamDefaultController<Uint8Array>): void => {
    void reader.cancel().catch(() => undefined);
    held.length = 0;
    const error = JSON.stringify(oversizedAnswer(id, { limitBytes: maxBytes }));
    // In a stream, the event cut off is ended under a type the SDK passes over, so only the error counts.
    if (!stream) controller.enqueue(encoder.encode(error));
    else if (!answered) controller.enqueue(encoder.encode(`\nevent: toolseam-cut\n\ndata: ${error}\n\n`));
    controller.close();
    // The SDK takes up the id of the event cut off too, when its id line came.
    if (stream && !answered)
      ended({ kind: 'oversized', why: 'too large', resumeFrom: eventId || resumeFrom });
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let read: Awaited<ReturnType<typeof reader.read>>;
      try {
        read = await reader.read();
      } catch (error) {
        controller.error(error);
        brokeOff(errorText(error));
        return;
      }
      if (read.done) {
        for (const chunk of held.splice(0)) controller.enqueue(chunk);
        controller.close();
        brokeOff('it ended');
        return;
      }
      // A stream answers one request, so all it carries (progress and logs too) counts as that answer.
      bytes += read.value.byteLength;
      if (bytes > maxBytes) {
        cutOff(controller);
        return;
      }
      if (!stream) {
        held.push(read.value);
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
