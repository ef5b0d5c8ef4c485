import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { StoredTurnEvent } from '../core/session-store.js';
import type { EventSubscription } from './event-subscription.js';

/** How long a stream may stay silent before a comment line keeps it (and any proxy on the way) open. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * Answers with Server-Sent Events: each kept event as `id`, `event` (its type) and `data` (the event
 * with its session and turn ids), a `: keep-alive` comment after each silence of `keepAliveMs`. The
 * subscription ends when the client goes.
 */
export function eventStream(
  c: Context,
  subscription: EventSubscription,
  keepAliveMs = KEEP_ALIVE_MS,
): Response {
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => subscription.end());
    let wrote = Date.now();
    const timer = setInterval(
      () => {
        if (Date.now() - wrote < keepAliveMs) return;
        wrote = Date.now();
        void stream.write(': keep-alive\n\n').catch(() => subscription.end());
      },
      Math.max(50, Math.floor(keepAliveMs / 3)),
    );
    try {
      // A comment at once, so the client knows the stream is open before any event comes.
      await stream.write(': open\n\n');
      for (let batch = await subscription.next(); batch.length > 0; batch = await subscription.next()) {
        if (stream.aborted || stream.closed) break;
        await stream.write(batch.map(sseMessage).join(''));
        wrote = Date.now();
      }
    } finally {
      clearInterval(timer);
      subscription.end();
    }
  });
}

/**
 * One event as an SSE message: `id`, `event` (its type) and one `data` line (JSON text holds no line
 * break), the event with its session and turn ids.
 */
export function sseMessage(event: StoredTurnEvent): string {
  const data = JSON.stringify({ ...event.data, sessionId: event.sessionId, turnId: event.turnId });
  return `id: ${event.id}\nevent: ${event.type.replace(/[\r\n]/g, '')}\ndata: ${data}\n\n`;
}
