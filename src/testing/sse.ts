import type { ServerResponse } from 'node:http';

/** Starts a `text/event-stream` answer. */
export function startEventStream(res: ServerResponse, headers: Readonly<Record<string, string>>): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
}

/** Writes one `data:` event (and an `event:` line when named). */
export function writeEvent(res: ServerResponse, data: unknown, event?: string): void {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
}
