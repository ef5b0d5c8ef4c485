import { existsSync, readFileSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/start-server.js';
import { expectError, expectJson, type Served, startServed } from './served.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A request with headers fetch will not send as given (Host). */
function raw(
  port: number,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => {
        body += d.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The status line of an HTTP/1.0 request that names no Host at all. */
function noHost(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /api/sessions HTTP/1.0\r\n\r\n'));
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString();
    });
    socket.on('end', () => resolve(text.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe('who may come in, on loopback', () => {
  it("refuses a Host that is not the server's own, reads included, and takes each of its own names", async () => {
    const s = await startServed();
    closers.push(() => s.close());
    const port = s.server.port;
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`]) {
      const res = await raw(port, '/api/sessions', { host });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body).error.code).toBe('forbidden_host');
    }
    expect(await noHost(port)).toMatch(/^HTTP\/1\.\d 403/);
    expect((await raw(port, '/api/health', { host: 'rebound.example' })).status).toBe(403);
    expect((await raw(port, '/', { host: 'rebound.example' })).status).toBe(403);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      expect((await raw(port, '/api/sessions', { host })).status, host).toBe(200);
    }
  });

  it('refuses a state-changing request from another origin, and takes its own', async () => {
    const s = await startServed();
    closers.push(() => s.close());
    await expectError(
      await s.api('/api/sessions', { json: {}, headers: { origin: 'http://evil.example' } }),
      403,
      'forbidden_origin',
    );
    await expectError(
      await s.api('/api/sessions', { json: {}, headers: { origin: 'null' } }),
      403,
      'forbidden_origin',
    );
    expect((await s.runtime.options.store.listSessions()).length).toBe(0);
    await expectJson(await s.api('/api/sessions', { json: {}, headers: { origin: s.base } }), 201, 'Session');
    // no CORS: nothing says another origin may read
    const read = await s.api('/api/sessions', { headers: { origin: 'http://evil.example' } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('who may come in, off loopback', () => {
  it('makes a token beside the database (0600), asks for it, and takes it as Bearer or as the sign-in cookie', async () => {
    const s: Served = await startServed();
    closers.push(() => s.close());
    // A second server on the same runtime, bound to every address: it needs the token.
    const open = await startServer({ runtime: s.runtime, host: '0.0.0.0', port: 0, version: 'test' });
    closers.push(() => open.shutdown(1_000));
    const base = `http://127.0.0.1:${open.port}`;
    const file = `${s.dbPath}.token`;
    expect(open.token?.created).toBe(true);
    expect(open.token?.file).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = readFileSync(file, 'utf8').trim();
    expect(token).toBe(open.token?.token);
    await expectError(await fetch(`${base}/api/sessions`), 401, 'unauthorized');
    await expectError(
      await fetch(`${base}/api/sessions`, { headers: { authorization: 'Bearer wrong' } }),
      401,
      'unauthorized',
    );
    await expectError(
      await fetch(`${base}/api/sessions`, {
        method: 'POST',
        body: '{}',
        headers: { authorization: 'Bearer nope' },
      }),
      401,
      'unauthorized',
    );
    expect((await s.runtime.options.store.listSessions()).length).toBe(0);
    await expectJson(
      await fetch(`${base}/api/sessions`, { headers: { authorization: `Bearer ${token}` } }),
      200,
      'SessionList',
    );
    await expectJson(await fetch(`${base}/api/health`), 200, 'Health');
    // sign in: a wrong token sets nothing; the right one sets an HttpOnly, SameSite=Strict cookie
    const wrong = await fetch(`${base}/api/sign-in`, {
      method: 'POST',
      body: JSON.stringify({ token: 'x' }),
    });
    await expectError(wrong, 401, 'unauthorized');
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const signIn = await fetch(`${base}/api/sign-in`, { method: 'POST', body: JSON.stringify({ token }) });
    expect(signIn.status).toBe(204);
    const cookie = signIn.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(token);
    const pair = cookie.split(';')[0] as string;
    await expectJson(await fetch(`${base}/api/sessions`, { headers: { cookie: pair } }), 200, 'SessionList');
    await expectError(
      await fetch(`${base}/api/sessions`, { headers: { cookie: 'toolseam_session=forged' } }),
      401,
      'unauthorized',
    );
    // the token does not let another origin change anything
    await expectError(
      await fetch(`${base}/api/sessions`, {
        method: 'POST',
        body: '{}',
        headers: { authorization: `Bearer ${token}`, origin: 'http://evil.example' },
      }),
      403,
      'forbidden_origin',
    );
    // a second start reads the same token and does not show it again
    const again = await startServer({ runtime: s.runtime, host: '0.0.0.0', port: 0, version: 'test' });
    closers.push(() => again.shutdown(1_000));
    expect(again.token).toMatchObject({ token, created: false });
    expect(existsSync(file)).toBe(true);
  });
});
