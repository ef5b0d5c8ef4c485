import type { ServerResponse } from 'node:http';
import { EventStreamCodec } from '@smithy/eventstream-codec';

const codec = new EventStreamCodec(
  (input: Uint8Array | string) => (typeof input === 'string' ? input : Buffer.from(input).toString('utf8')),
  (input: string) => new Uint8Array(Buffer.from(input, 'utf8')),
);

function frame(headers: Record<string, string>, payload: unknown): Uint8Array {
  const tagged = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }]),
  );
  return codec.encode({
    headers: tagged,
    body: new Uint8Array(Buffer.from(JSON.stringify(payload), 'utf8')),
  });
}

/** Writes one ConverseStream event frame (`:message-type` event). */
export function writeStreamEvent(res: ServerResponse, eventType: string, payload: unknown): void {
  res.write(
    frame(
      { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' },
      payload,
    ),
  );
}

/** Writes one in-stream exception frame (`:message-type` exception), e.g. `throttlingException`. */
export function writeStreamException(res: ServerResponse, exceptionType: string, message: string): void {
  res.write(
    frame(
      { ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' },
      { message },
    ),
  );
}

/** Writes one error frame (`:message-type` error, with `:error-code` and `:error-message`, no payload). */
export function writeStreamErrorFrame(res: ServerResponse, code: string, message: string): void {
  res.write(frame({ ':error-code': code, ':error-message': message, ':message-type': 'error' }, {}));
}
