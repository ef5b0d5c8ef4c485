import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.js';
import { parseStreamEvent, STREAM_EVENT_TYPES, type StreamEvent } from './stream-event.js';

/** How long to wait before opening a stream again after the browser gave it up. */
const REOPEN_MS = 3000;

/**
 * Follows a session's event stream: every event goes to `onEvent`. The browser's EventSource reconnects
 * by itself with Last-Event-ID; when it gives up (the server answered something other than a stream),
 * the stream is opened again after the last event seen. `ready` false waits (e.g. for the history).
 * Returns whether the stream is connected.
 */
export function useSessionStream(
  sessionId: string,
  ready: boolean,
  after: string | undefined,
  onEvent: (event: StreamEvent) => void,
): boolean {
  const [connected, setConnected] = useState(false);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const startAfter = useRef(after);
  startAfter.current = after;

  useEffect(() => {
    if (!ready) return;
    let source: EventSource | undefined;
    let last = startAfter.current;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    const receive = (message: MessageEvent<string>) => {
      const event = parseStreamEvent(message.data, message.lastEventId);
      if (!event) return;
      if (event.id !== undefined) last = event.id;
      handler.current(event);
    };
    const open = () => {
      source = new EventSource(api.eventsUrl(sessionId, last));
      source.onopen = () => setConnected(true);
      source.onerror = () => {
        setConnected(false);
        if (source?.readyState !== EventSource.CLOSED || closed) return;
        // The browser gave up: ask once in plain HTTP, which shows the sign-in form on a 401.
        api.session(sessionId).catch(() => {});
        timer = setTimeout(open, REOPEN_MS);
      };
      for (const type of STREAM_EVENT_TYPES) source.addEventListener(type, receive);
      source.addEventListener('message', receive);
    };
    open();
    return () => {
      closed = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [sessionId, ready]);

  return connected;
}
