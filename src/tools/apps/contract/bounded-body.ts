/** An answer's body read up to a bound: the bytes read, and whether that was all of it. */
export interface BoundedBody {
  readonly bytes: Buffer;
  /** False when the body went on past the bound (the rest was not read). */
  readonly whole: boolean;
}

/**
 * Reads `response`'s body until it ends or `maxBytes` are read, then stops the download: an answer far
 * larger than asked for is never held in memory whole.
 */
export async function boundedBody(response: Response, maxBytes: number): Promise<BoundedBody> {
  if (response.body === null) return { bytes: Buffer.alloc(0), whole: true };
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks, size), whole: true };
    const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks, maxBytes), whole: false };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
}
