/**
 * A server's stdout split into lines, as the SDK's ReadBuffer does, but handing back each line itself
 * so one that is not a message can still be quoted. An unfinished line may grow to `maxBytes`.
 */
export class StdoutLines {
  private buffer: Buffer | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Adds a chunk; throws (and forgets what it held) once the text not yet read passes the limit. */
  append(chunk: Buffer): void {
    const size = (this.buffer?.length ?? 0) + chunk.length;
    if (size > this.maxBytes) {
      this.clear();
      // Worded as the SDK's ReadBuffer words it: the connection recognises the words.
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  /** The next whole line without its line ending, or undefined until one is complete. */
  next(): string | undefined {
    const index = this.buffer?.indexOf('\n') ?? -1;
    if (this.buffer === undefined || index === -1) return undefined;
    const line = this.buffer.toString('utf8', 0, index).replace(/\r$/, '');
    this.buffer = this.buffer.subarray(index + 1);
    return line;
  }

  /** Forgets everything held. */
  clear(): void {
    this.buffer = undefined;
  }
}
