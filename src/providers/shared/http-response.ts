import type { IncomingMessage } from 'node:http';
import { PassThrough, pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';

/** A response's headers, read-only, answering as `Headers` does (names in lower case, sorted). */
export class ResponseHeaders {
  private readonly byName = new Map<string, string[]>();

  constructor(raw: readonly string[]) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = (raw[i] as string).toLowerCase();
      const list = this.byName.get(name);
      if (list) list.push(raw[i + 1] as string);
      else this.byName.set(name, [raw[i + 1] as string]);
    }
  }

  /** The header's values joined by ", ", or null when it is absent. */
  get(name: string): string | null {
    return this.byName.get(name.toLowerCase())?.join(', ') ?? null;
  }

  has(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }

  /** Every `set-cookie` value, each on its own. */
  getSetCookie(): string[] {
    return [...(this.byName.get('set-cookie') ?? [])];
  }

  forEach(visit: (value: string, name: string, headers: ResponseHeaders) => void): void {
    for (const [name, value] of this.entries()) visit(value, name, this);
  }

  /** Each header once with its values joined, but each `set-cookie` on its own (as `Headers` iterates). */
  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.byName.keys()].sort()) {
      if (name === 'set-cookie') for (const value of this.getSetCookie()) yield [name, value];
      else yield [name, this.get(name) as string];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** A copy of `bytes` in memory of its own (not a view of Node's shared pool of small buffers). */
function ownBytes(bytes: Buffer): Uint8Array {
  return new Uint8Array(bytes);
}

/**
 * A response as `fetch` gives one, with the answer's body as Node's own stream (async iterable, which is
 * how the SDKs read a body) instead of a web stream: each chunk of a streamed answer reaches the SDK
 * without a web-stream stage of its own.
 */
export class HttpResponse {
  readonly type = 'basic';
  readonly ok: boolean;
  bodyUsed = false;

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: ResponseHeaders,
    readonly url: string,
    readonly redirected: boolean,
    public body: Readable | null,
  ) {
    this.ok = status >= 200 && status <= 299;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return ownBytes(await this.read()).buffer as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return ownBytes(await this.read());
  }

  /** The body as UTF-8 text, a leading byte-order mark left out (as `fetch` decodes). */
  async text(): Promise<string> {
    const bytes = await this.read();
    const bom = bytes.subarray(0, UTF8_BOM.length).equals(UTF8_BOM);
    return bytes.toString('utf8', bom ? UTF8_BOM.length : 0);
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.read()], { type: this.headers.get('content-type') ?? '' });
  }

  /**
   * A second response over the same answer. Each copy takes every chunk as it comes, whether the other
   * is read or not (as a web stream's tee does), so the two may be read one after the other.
   */
  clone(): HttpResponse {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    let copy: Readable | null = null;
    const body = this.body;
    if (body) {
      // Written to whatever either has not read yet: neither copy holds the other back.
      const copies = [new PassThrough(), new PassThrough()];
      for (const c of copies) {
        // A copy nobody reads yet meets a failure when it is read (as a web stream would), not as an
        // 'error' event no one listens to, which would end the process.
        c.on('error', () => {});
      }
      body.on('data', (chunk: Buffer) => {
        for (const c of copies) c.write(chunk);
      });
      body.once('end', () => {
        for (const c of copies) c.end();
      });
      body.once('error', (error) => {
        for (const c of copies) c.destroy(error);
      });
      [this.body, copy] = copies as [PassThrough, PassThrough];
    }
    return new HttpResponse(this.status, this.statusText, this.headers, this.url, this.redirected, copy);
  }

  /** The whole body, once. */
  private async read(): Promise<Buffer> {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.bodyUsed = true;
    const chunks: Buffer[] = [];
    if (this.body) for await (const chunk of this.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
}

// Lenient at a cut, as undici is: a compressed body that ends early gives what it had.
const ZLIB_FLUSH = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_FLUSH = {
  flush: constants.BROTLI_OPERATION_FLUSH,
  finishFlush: constants.BROTLI_OPERATION_FLUSH,
};

/**
 * One content coding undone by the zlib stream `make` gives for the body's first bytes. Its failure is
 * the reader's as undici gives it, `TypeError('terminated')` with zlib's error as the cause, which the
 * adapters count as a lost answer (tried again) rather than an unexpected error.
 */
class Decoder extends Transform {
  private inner: Transform | undefined;

  constructor(private readonly make: (first: Buffer) => Transform) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.inner === undefined) {
      const inner = this.make(chunk);
      inner.on('data', (out: Buffer) => this.push(out));
      inner.once('error', (error) => this.destroy(new TypeError('terminated', { cause: error })));
      this.inner = inner;
    }
    this.inner.write(chunk, done);
  }

  override _flush(done: TransformCallback): void {
    if (this.inner === undefined) {
      done();
      return;
    }
    this.inner.once('end', () => done());
    this.inner.end();
  }
}

/** The decoder of one content coding, or undefined for one `fetch` does not decode. */
function decoderFor(coding: string): Transform | undefined {
  if (coding === 'gzip' || coding === 'x-gzip') return new Decoder(() => createGunzip(ZLIB_FLUSH));
  // With its zlib header or without (raw DEFLATE, which some servers send under this name): a zlib
  // header's first byte says "deflate" in its low four bits, as undici reads it.
  if (coding === 'deflate')
    return new Decoder((first) =>
      ((first[0] ?? 0) & 0x0f) === 0x08 ? createInflate(ZLIB_FLUSH) : createInflateRaw(ZLIB_FLUSH),
    );
  if (coding === 'br') return new Decoder(() => createBrotliDecompress(BROTLI_FLUSH));
  return undefined;
}

/**
 * The answer's body, decoded as its `content-encoding` says: each coding undone, the last applied
 * first. A coding `fetch` does not decode leaves the body as it came.
 */
export function decodedBody(response: IncomingMessage): Readable {
  const codings = (response.headers['content-encoding'] ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  const decoders: Transform[] = [];
  for (const coding of codings.reverse()) {
    const decoder = decoderFor(coding);
    if (decoder === undefined) return response;
    decoders.push(decoder);
  }
  // An error anywhere (a cut connection, a stop) ends every stage after it with it.
  let body: Readable = response;
  for (const decoder of decoders) body = pipeline(body, decoder, () => {});
  return body;
}
