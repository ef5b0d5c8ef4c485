import type { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { SESSION_COOKIE } from './access.js';
import { ApiError } from './api-error.js';
import { jsonBody, stringField } from './json-body.js';
import { OPENAPI_DOCUMENT } from './openapi-document.js';
import type { ServerDeps } from './server-deps.js';
import { cookieValue, sameSecret } from './server-token.js';

/** Health, the OpenAPI document, sign-in, turns and batches. */
export function otherRoutes(app: Hono, deps: ServerDeps): void {
  const store = deps.runtime.options.store;

  app.get('/api/health', (c) => {
    const body = {
      status: deps.state.stopping ? 'stopping' : 'ok',
      version: deps.version,
      turnsRunning: deps.hub.runningTurns().length,
    };
    return c.json(body, deps.state.stopping ? 503 : 200);
  });

  app.get('/api/openapi.json', (c) => c.json(OPENAPI_DOCUMENT));

  app.post('/api/sign-in', async (c) => {
    const token = stringField(await jsonBody(c), 'token', true) as string;
    const expected = deps.access.token;
    if (expected === undefined) return c.body(null, 204); // on loopback nobody needs to sign in
    if (!sameSecret(token.trim(), expected)) {
      throw new ApiError(
        401,
        'unauthorized',
        'That is not this server\'s token; it is in the ".token" file beside the database.',
      );
    }
    setCookie(c, SESSION_COOKIE, cookieValue(expected), { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.body(null, 204);
  });

  app.get('/api/turns/:id', async (c) => {
    const id = c.req.param('id');
    const turn = await store.getTurn(id);
    if (!turn) throw new ApiError(404, 'unknown_turn', `There is no turn ${id}.`, { turnId: id });
    return c.json({
      id: turn.id,
      sessionId: turn.sessionId,
      status: turn.status,
      userText: turn.userText,
      startedAt: turn.startedAt,
      endedAt: turn.endedAt ?? null,
      error: turn.error ?? null,
      runningHere: deps.hub.running(turn.sessionId)?.turnId === turn.id,
    });
  });

  app.get('/api/batches/:id', async (c) => {
    const id = c.req.param('id');
    const batch = await store.getBatch(id);
    if (!batch)
      throw new ApiError(404, 'unknown_batch', `There is no subagent batch ${id}.`, { batchId: id });
    return c.json({
      id: batch.id,
      parentSessionId: batch.parentSessionId,
      turnId: batch.turnId ?? null,
      title: batch.title,
      status: batch.status,
      createdAt: batch.createdAt,
      endedAt: batch.endedAt ?? null,
      leaves: batch.leaves.map((l) => ({
        id: l.id,
        index: l.index,
        title: l.title,
        status: l.status,
        childSessionId: l.childSessionId ?? null,
        output: l.output ?? null,
        errors: l.errors,
        startedAt: l.startedAt ?? null,
        endedAt: l.endedAt ?? null,
      })),
    });
  });
}
