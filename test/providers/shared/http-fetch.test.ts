import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpFetch, httpFetch } from '../../../src/providers/shared/http-fetch.js';
import { isLostConnection } from '../../../src/providers/shared/lost-connection.js';
import { TSX_LOADER } from '../../support/tsx-loader.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A loopback server answering with `handle`; it records each request and counts connections. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse, seen: Seen) => void) {
  const requests: Seen[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(seen);
      handle(req, res, seen);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, connections: () => connections };
}

async function chunksOf(response: Response): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) out.push(chunk);
  return out;
}

describe('httpFetch', () => {
  it('answers as Node’s fetch does: status, headers, body, url', async () => {
    const { url, requests } = await serve((_req, res) => {
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.setHeader('X-Multi', ['one', 'two']);
      res.writeHead(201, 'Made', { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
    const init = { method: 'POST', headers: { 'X-Key': 'k' }, body: '{"q":1}' };
    const mine = await httpFetch(`${url}/a?b=c`, init);
    const theirs = await fetch(`${url}/a?b=c`, init);
    for (const r of [mine, theirs]) {
      expect(r).toMatchObject({ status: 201, statusText: 'Made', ok: true, url: `${url}/a?b=c` });
      expect(r.redirected).toBe(false);
    }
    expect([...mine.headers.entries()].filter(([n]) => n !== 'date' && n !== 'keep-alive')).toEqual(
      [...theirs.headers.entries()].filter(([n]) => n !== 'date' && n !== 'keep-alive'),
    );
    expect(mine.headers.get('x-multi')).toBe('one, two');
    expect(mine.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await mine.json()).toEqual({ ok: true });
    expect(mine.bodyUsed).toBe(true);
    await expect(mine.text()).rejects.toThrow(TypeError);
    await theirs.text();
    const [sent] = requests;
    expect(sent).toMatchObject({ method: 'POST', url: '/a?b=c', body: '{"q":1}' });
    expect(sent?.headers).toMatchObject({ 'x-key': 'k', 'content-length': '7', accept: '*/*' });
  });

  it('hands a streamed answer over chunk by chunk as bytes, before it has ended', async () => {
    let finish: (() => void) | undefined;
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      finish = () => res.end('data: [DONE]\n\n');
    });
    const response = await httpFetch(url, { method: 'POST', body: new TextEncoder().encode('x') });
    const iterator = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(first.value as Uint8Array).toString()).toBe('data: 1\n\n');
    finish?.();
    const rest: string[] = [];
    for (let step = await iterator.next(); !step.done; step = await iterator.next())
      rest.push(Buffer.from(step.value).toString());
    expect(rest.join('')).toBe('data: [DONE]\n\n');
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['deflate', deflateRawSync],
    ['br', brotliCompressSync],
    ['gzip, br', (b: Buffer) => brotliCompressSync(gzipSync(b))],
  ] as const)('decodes a %s answer as Node’s fetch does', async (encoding, encode) => {
    const text = 'a long answer '.repeat(200);
    const { url, requests } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': encoding }).end(encode(Buffer.from(text)));
    });
    expect(await (await httpFetch(url)).text()).toBe(text);
    expect(await (await fetch(url)).text()).toBe(text);
    expect(requests[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
  ] as const)('fails a corrupt %s answer as fetch does, as a lost answer', async (encoding, encode) => {
    // Text that compresses little, the same on every run.
    const text = Array.from({ length: 125 }, (_, i) => createHash('sha256').update(String(i)).digest('hex'));
    const good = encode(Buffer.from(text.join('')));
    const corrupt = Buffer.from(good).fill(7, 12, good.length - 8);
    const { url } = await serve((_req, res) =>
      res.writeHead(200, { 'content-encoding': encoding }).end(corrupt),
    );
    const mine = await (await httpFetch(url)).text().catch((e: unknown) => e);
    const theirs = await (await fetch(url)).text().catch((e: unknown) => e);
    expect(mine).toBeInstanceOf(TypeError);
    expect((mine as Error).message).toBe((theirs as Error).message);
    expect(isLostConnection(mine)).toBe(true);
  });

  it('reads text and JSON as fetch does: a byte-order mark left out, bytes of their own', async () => {
    const { url } = await serve((_req, res) => res.end(Buffer.from('\uFEFF{"a":1}')));
    expect(await (await httpFetch(url)).json()).toEqual(await (await fetch(url)).json());
    // `bytes()` is newer than the lib this project compiles against.
    const answer = (await httpFetch(url)) as unknown as { bytes(): Promise<Uint8Array> };
    const bytes = await answer.bytes();
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });

  it('keeps the connection for the next request', async () => {
    const { url, connections } = await serve((_req, res) => res.end('ok'));
    for (let i = 0; i < 3; i += 1) expect(await (await httpFetch(url)).text()).toBe('ok');
    expect(connections()).toBe(1);
  });

  it('gives no body for 204 and for HEAD', async () => {
    const { url } = await serve((req, res) => res.writeHead(req.method === 'HEAD' ? 200 : 204).end());
    expect((await httpFetch(url)).body).toBeNull();
    expect((await httpFetch(url, { method: 'HEAD' })).body).toBeNull();
  });

  it('follows redirects as fetch does, and keeps credentials on the origin they were meant for', async () => {
    const other = await serve((_req, res) => res.end('there'));
    const { url, requests } = await serve((req, res) => {
      if (req.url === '/keep') res.writeHead(307, { location: '/kept' }).end();
      else if (req.url === '/see') res.writeHead(303, { location: '/seen' }).end();
      else if (req.url === '/away') res.writeHead(308, { location: `${other.url}/landed` }).end();
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (req.url === '/broken') res.writeHead(302, { location: 'http://[' }).end();
      else res.end(`at ${req.url}`);
    });
    const post = { method: 'POST', body: 'B', headers: { authorization: 'Bearer s', 'x-api-key': 's' } };
    const kept = await httpFetch(`${url}/keep`, post);
    expect(await kept.text()).toBe('at /kept');
    expect(kept).toMatchObject({ redirected: true, url: `${url}/kept` });
    expect(requests.at(-1)).toMatchObject({ method: 'POST', body: 'B' });
    expect(requests.at(-1)?.headers.authorization).toBe('Bearer s');

    expect(await (await httpFetch(`${url}/see`, post)).text()).toBe('at /seen');
    expect(requests.at(-1)).toMatchObject({ method: 'GET', body: '' });

    expect(await (await httpFetch(`${url}/away`, post)).text()).toBe('there');
    expect(other.requests[0]).toMatchObject({ method: 'POST', body: 'B' });
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
    expect(other.requests[0]?.headers['x-api-key']).toBeUndefined();

    const broken = await httpFetch(`${url}/broken`).catch((error: unknown) => error);
    expect(broken).toMatchObject({ message: 'fetch failed' });
    expect(String((broken as Error).cause)).toContain('a Location that is not a URL');

    const manual = await httpFetch(`${url}/keep`, { ...post, redirect: 'manual' });
    expect(manual.status).toBe(307);
    await expect(httpFetch(`${url}/keep`, { ...post, redirect: 'error' })).rejects.toThrow('fetch failed');
    const looped = await httpFetch(`${url}/loop`).catch((error: unknown) => error);
    expect(looped).toBeInstanceOf(TypeError);
    expect(String((looped as Error).cause)).toContain('more than 20 redirects');
  });

  it('stops with the signal’s reason, before the answer and while its body comes', async () => {
    let later: ServerResponse | undefined;
    const { url } = await serve((req, res) => {
      if (req.url === '/slow') later = res;
      else {
        res.writeHead(200);
        res.write('part');
      }
    });
    const early = new AbortController();
    const waiting = httpFetch(`${url}/slow`, { signal: early.signal });
    await new Promise((r) => setTimeout(r, 50));
    early.abort(new Error('stopped by the person'));
    await expect(waiting).rejects.toThrow('stopped by the person');
    expect(later).toBeDefined();

    const midway = new AbortController();
    const response = await httpFetch(`${url}/stream`, { signal: midway.signal });
    const iterator = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    await iterator.next();
    midway.abort(new Error('stopped midway'));
    await expect(iterator.next()).rejects.toThrow('stopped midway');

    // Stopped while nobody reads the body: the reader meets the reason later, and nothing else fails.
    const unread = new AbortController();
    const waitingBody = await httpFetch(`${url}/stream`, { signal: unread.signal });
    unread.abort(new Error('stopped unread'));
    await new Promise((r) => setTimeout(r, 20));
    await expect(chunksOf(waitingBody)).rejects.toThrow('stopped unread');

    const before = new AbortController();
    before.abort(new Error('already stopped'));
    await expect(httpFetch(url, { signal: before.signal })).rejects.toThrow('already stopped');
  });

  it('lets go of the signal once the answer has been read', async () => {
    const { url } = await serve((_req, res) => res.end('ok'));
    const signal = new AbortController().signal;
    await (await httpFetch(url, { signal })).text();
    await new Promise((r) => setImmediate(r));
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('fails a refused or cut connection as fetch does, which counts as a lost connection', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('half');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const closed = await serve(() => {});
    servers.splice(servers.length - 1, 1).forEach((s) => {
      s.close();
    });
    const refused = await httpFetch(closed.url).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect(refused).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
    expect(isLostConnection(refused)).toBe(true);

    const cut = await httpFetch(url);
    const error = await chunksOf(cut).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isLostConnection(error)).toBe(true);
  });

  it('gives up on a connection that cannot be made in time, as a lost connection', async () => {
    // A name whose lookup never answers: the connection stays unmade.
    const lookup = (() => {}) as unknown as LookupFunction;
    const started = performance.now();
    const error = await createHttpFetch({ connectMs: 100, lookup })('http://stalled.invalid/').catch(
      (e: unknown) => e,
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    expect(error).toMatchObject({ message: 'fetch failed' });
    expect(String((error as Error).cause)).toContain(
      'timed out: could not connect to stalled.invalid within 0.1 s',
    );
    expect(isLostConnection(error)).toBe(true);
  });

  it('waits for a slow connection as long as the connect limit allows, not the idle limit', async () => {
    const { url } = await serve((_req, res) => res.end('made'));
    const port = new URL(url).port;
    // The name takes 300 ms to look up, longer than the idle limit of kept connections here.
    const lookup = ((_host: string, options: { all?: boolean }, answer: (...args: unknown[]) => void) => {
      setTimeout(() => {
        if (options.all) answer(null, [{ address: '127.0.0.1', family: 4 }]);
        else answer(null, '127.0.0.1', 4);
      }, 300);
    }) as unknown as LookupFunction;
    const slow = createHttpFetch({ idleMs: 100, connectMs: 5_000, lookup });
    expect(await (await slow(`http://slow.invalid:${port}/`)).text()).toBe('made');
  });

  it('gives up on a connection that stays silent too long, as a lost connection', async () => {
    const { url } = await serve(() => {});
    const error = await createHttpFetch({ silentMs: 100 })(url).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'fetch failed' });
    expect(String((error as Error).cause)).toContain('timed out: ');
    expect(String((error as Error).cause)).toContain('sent nothing for 0.1 s');
    expect(isLostConnection(error)).toBe(true);
  });

  it('reads a cloned answer twice, and hands other requests to Node’s fetch', async () => {
    const { url, requests } = await serve((_req, res) => res.end('twice'));
    const response = await httpFetch(url);
    const copy = response.clone();
    expect(await Promise.all([response.text(), copy.text()])).toEqual(['twice', 'twice']);
    // One copy read to its end before the other is touched: a large answer does not wait on it.
    const large = 'x'.repeat(1 << 20);
    const big = await serve((_req, res) => res.end(large));
    const first = await createHttpFetch({ silentMs: 2_000 })(big.url);
    const second = first.clone();
    expect((await first.text()).length).toBe(large.length);
    expect((await second.text()).length).toBe(large.length);
    // A copy left unread when the answer fails does not end the process; its reader meets the failure.
    const cut = await serve((_req, res) => {
      res.writeHead(200);
      res.write('half');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const failing = await httpFetch(cut.url);
    const unreadCopy = failing.clone();
    await expect(failing.text()).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 20));
    await expect(unreadCopy.text()).rejects.toThrow();
    const asRequest = await httpFetch(new Request(`${url}/req`));
    expect(asRequest).toBeInstanceOf(Response);
    expect(await asRequest.text()).toBe('twice');
    const streamed = new Blob(['blob body']);
    expect(await (await httpFetch(url, { method: 'POST', body: streamed })).text()).toBe('twice');
    expect(requests.map((r) => r.body)).toEqual(['', '', 'blob body']);
  });
});

describe('httpFetch over TLS', () => {
  /** A self-signed certificate for 127.0.0.1, made for this run. */
  function certificate(): { key: string; cert: string; certFile: string } {
    const dir = mkdtempSync(join(tmpdir(), 'http-fetch-tls-'));
    const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
  }

  async function tlsServer(key: string, cert: string) {
    let connections = 0;
    const server = createTlsServer({ key, cert }, (_req, res) => res.end('over tls'));
    server.on('secureConnection', () => {
      connections += 1;
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return {
      url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      connections: () => connections,
    };
  }

  it('refuses a certificate nobody vouches for, as Node’s fetch does, and trusts one the process is told to', async () => {
    const { key, cert, certFile } = certificate();
    const { url, connections } = await tlsServer(key, cert);
    const mine = await httpFetch(url).catch((error: unknown) => error);
    const theirs = await fetch(url).catch((error: unknown) => error);
    expect(mine).toBeInstanceOf(TypeError);
    expect((mine as Error).message).toBe((theirs as Error).message);
    expect((mine as { cause: { code: string } }).cause.code).toBe(
      (theirs as { cause: { code: string } }).cause.code,
    );

    // NODE_EXTRA_CA_CERTS is read as a process starts: a child fetches twice with the certificate trusted.
    const module = pathToFileURL(
      join(import.meta.dirname, '../../../src/providers/shared/http-fetch.ts'),
    ).href;
    const script = `const { httpFetch } = await import(${JSON.stringify(module)});
      for (let i = 0; i < 2; i++) process.stdout.write(await (await httpFetch(${JSON.stringify(url)})).text() + '\\n');`;
    const child = spawn(process.execPath, ['--import', TSX_LOADER, '--input-type=module', '-e', script], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(out).toBe('over tls\nover tls\n');
    // The refused tries above never finished a handshake; the child's two requests shared one connection.
    expect(connections()).toBe(1);
  });
});
