/** One thing read from a server's stdout: a whole line, or a line too long to keep, known by its size and edges. */
export type StdoutItem =
  | { readonly kind: 'line'; readonly text: string }
  | {
      readonly kind: 'oversized';
      /** The whole line's size, without its line ending. */
      readonly bytes: number;
      /** Its first and last {@link EDGE_BYTES} bytes, where a JSON-RPC answer says its id. */
      readonly head: string;
      readonly tail: string;
    };

/** How much of each end of an oversized line is kept. */
export const EDGE_BYTES = 160;

/**
 * A server's stdout split into lines, as the SDK's ReadBuffer does, but handing back each line itself
 * so one that is not a message can still be quoted. A line may grow to `maxBytes`; a longer one is
 * not kept: it is counted to its end and handed back as `oversized`, and the lines after it are read
 * as usual.
 */
export class StdoutLines {
  private pieces: Buffer[] = [];
  private held = 0;
  private skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;
  private readonly ready: StdoutItem[] = [];

  constructor(private readonly maxBytes: number) {}

  /** Adds a chunk of output. */
  append(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, end === -1 ? chunk.length : end));
      if (end === -1) return;
      this.endLine();
      start = end + 1;
    }
  }

  /** The next whole line (without its line ending) or oversized line, or undefined until one is complete. */
  next(): StdoutItem | undefined {
    return this.ready.shift();
  }

  /** Forgets everything held. */
  clear(): void {
    this.pieces = [];
    this.held = 0;
    this.skipping = undefined;
    this.ready.length = 0;
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    const skip = this.skipping;
    if (skip !== undefined) {
      skip.bytes += piece.length;
      skip.tail = lastBytes(Buffer.concat([skip.tail, lastBytes(piece)]));
      return;
    }
    if (this.held + piece.length <= this.maxBytes) {
      this.pieces.push(piece);
      this.held += piece.length;
      return;
    }
    const line = Buffer.concat([...this.pieces, piece]);
    this.pieces = [];
    this.held = 0;
    // Copies, so the long line itself is not kept alive by its edges.
    this.skipping = {
      bytes: line.length,
      head: Buffer.from(line.subarray(0, EDGE_BYTES)),
      tail: Buffer.from(lastBytes(line)),
    };
  }

  private endLine(): void {
    const skip = this.skipping;
    if (skip !== undefined) {
      this.skipping = undefined;
      const tail = skip.tail.toString('utf8').replace(/\r$/, '');
      this.ready.push({ kind: 'oversized', bytes: skip.bytes, head: skip.head.toString('utf8'), tail });
      return;
    }
    const text = Buffer.concat(this.pieces).toString('utf8').replace(/\r$/, '');
    this.pieces = [];
    this.held = 0;
    this.ready.push({ kind: 'line', text });
  }
}

/** A JSON-RPC id as a value: a number or a JSON string. */
const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":7,…` (the id first, as most SDKs write an answer). */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}\s*,`);
/** `…,"jsonrpc":"2.0","id":7}` or `…,"id":7,"jsonrpc":"2.0"}` (the id last, as the TypeScript SDK writes one). */
const ID_LAST = new RegExp(String.raw`,\s*"id"\s*:\s*${ID}\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$`);

/** The id an oversized JSON-RPC line carries at its top level, read from its edges; undefined when neither shows one. */
export function edgeId(item: { readonly head: string; readonly tail: string }): string | number | undefined {
  const found = ID_FIRST.exec(item.head)?.[1] ?? ID_LAST.exec(item.tail)?.[1];
  if (found === undefined) return undefined;
  try {
    return JSON.parse(found) as string | number;
  } catch {
    return undefined;
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= EDGE_BYTES ? buffer : buffer.subarray(buffer.length - EDGE_BYTES);
}
