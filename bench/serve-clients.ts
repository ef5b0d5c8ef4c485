import { parentPort, workerData } from 'node:worker_threads';
import { readEvents } from '../src/testing/event-stream-reader.js';

/** What the clients report of one event they read: when (ms since the epoch, sub-millisecond), its id and content. */
export interface ReadMark {
  readonly at: number;
  readonly id: number;
  readonly turnId: string;
  readonly json: string;
}

/**
 * The serve bench's clients, in a worker thread of their own: one event stream per session, open
 * before anything is sent; each session sends its next message as soon as its last turn ended. Then
 * (on 'idle') a stream per session held open with nothing to send, until 'close'.
 */
const { base, ids, turns } = workerData as { base: string; ids: string[]; turns: number };
const now = (): number => performance.timeOrigin + performance.now();
const post = (path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const marks: ReadMark[] = [];
const streams = await Promise.all(ids.map((id) => fetch(`${base}/api/sessions/${id}/events`)));
const reading = streams.map((response, i) => {
  const id = ids[i] as string;
  let ended = 0;
  return readEvents(response, (event) => {
    const { sessionId: _s, turnId, ...rest } = event.data;
    marks.push({ at: now(), id: event.id, turnId: String(turnId), json: JSON.stringify(rest) });
    if (event.event !== 'turn-end') return false;
    ended += 1;
    if (ended < turns) void post(`/api/sessions/${id}/messages`, { text: `turn ${ended + 1}` });
    return ended === turns;
  });
});
const started = now();
await Promise.all(ids.map((id) => post(`/api/sessions/${id}/messages`, { text: 'turn 1' })));
await Promise.all(reading);
parentPort?.postMessage({ kind: 'streamed', marks, wallMs: now() - started });

let idle: Response[] = [];
parentPort?.on('message', async (message: string) => {
  if (message === 'idle') {
    idle = await Promise.all(ids.map((id) => fetch(`${base}/api/sessions/${id}/events?after=999999999999`)));
    parentPort?.postMessage({ kind: 'idle' });
  }
  if (message === 'close') {
    for (const r of idle) await r.body?.cancel();
    parentPort?.close();
  }
});
