import type { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { ownerToken, SESSION_COOKIE } from './access.js';
import { ApiError } from './api-error.js';
import { jsonBody, stringField } from './json-body.js';
import { OPENAPI_DOCUMENT } from './openapi-document.js';
import type { ServerDeps } from './server-deps.js';
import { cookieValue, sameSecret } from './server-token.js';
import { ownsSession } from './session-owner.js';
import { userCookie, userTokenClaim } from './user-tokens.js';

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
    const token = (stringField(await jsonBody(c), 'token', true) as string).trim();
    const refused = () =>
      new ApiError(
        401,
        'unauthorized',
        'That is not a token of this server: a user\'s comes from `toolseam users add NAME`, the owner\'s is in the ".token" file beside the database.',
      );
    const cookie = { httpOnly: true, sameSite: 'Strict', path: '/' } as const;
    const claim = userTokenClaim(token);
    if (claim) {
      if (!(await deps.access.people.verify(claim))) throw refused();
      setCookie(c, SESSION_COOKIE, userCookie(claim), cookie);
      return c.body(null, 204);
    }
    const expected = await ownerToken(deps.access);
    if (expected === undefined) return c.body(null, 204); // on loopback without users nobody needs to sign in
    if (!sameSecret(token, expected)) throw refused();
    setCookie(c, SESSION_COOKIE, cookieValue(expected), cookie);
    return c.body(null, 204);
  });

  app.get('/api/turns/:id', async (c) => {
    const id = c.req.param('id');
    const turn = await store.getTurn(id);
    // Another person's turn is answered as one that does not exist: ids do not leak.
    if (!turn || !(await ownsSession(c, deps, turn.sessionId))) {
      throw new ApiError(404, 'unknown_turn', `There is no turn ${id}.`, { turnId: id });
    }
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
    if (!batch || !(await ownsSession(c, deps, batch.parentSessionId)))
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
