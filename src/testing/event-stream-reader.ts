/** One Server-Sent Event of `toolseam serve` as a client reads it. */
export interface ReadEvent {
  readonly id: number;
  readonly event: string;
  readonly data: Record<string, unknown>;
}

/**
 * Reads Server-Sent Events from a response until `stop` says so (given each event and all so far), the
 * stream ends, or `cut` is called; `comments` counts the comment lines (keep-alives) seen.
 */
export async function readEvents(
  response: Response,
  stop: (event: ReadEvent, all: readonly ReadEvent[]) => boolean = () => false,
  seen: { comments: number; stopAfterComments?: number } = { comments: 0 },
): Promise<ReadEvent[]> {
  const events: ReadEvent[] = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return events;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const fields: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) {
            seen.comments += 1;
            if (seen.stopAfterComments !== undefined && seen.comments >= seen.stopAfterComments)
              return events;
            continue;
          }
          const at = line.indexOf(':');
          const key = line.slice(0, at);
          fields[key] =
            (fields[key] === undefined ? '' : `${fields[key]}\n`) + line.slice(at + 1).replace(/^ /, '');
        }
        if (fields.data === undefined) continue;
        const event = {
          id: Number(fields.id),
          event: fields.event ?? 'message',
          data: JSON.parse(fields.data),
        };
        events.push(event);
        if (stop(event, events)) return events;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
