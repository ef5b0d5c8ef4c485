import type { Hono } from 'hono';
import { ApiError } from './api-error.js';
import { jsonBody, stringField } from './json-body.js';
import { userShape } from './people.js';
import type { ServerDeps } from './server-deps.js';
import { ownerOnly } from './session-owner.js';
import { issueUserToken } from './user-tokens.js';

/** The owner's management of users: list, add (the token shown once), revoke. */
export function userRoutes(app: Hono, deps: ServerDeps): void {
  const store = deps.runtime.options.store;

  app.get('/api/users', async (c) => {
    ownerOnly(c, 'list the users');
    return c.json({ users: (await store.listUsers()).map(userShape) });
  });

  app.post('/api/users', async (c) => {
    ownerOnly(c, 'add users');
    const name = (stringField(await jsonBody(c), 'name', true) as string).trim();
    const issued = issueUserToken();
    const user = await store.createUser({ id: issued.userId, name, tokenHash: issued.tokenHash });
    deps.access.people.changed();
    return c.json({ user: userShape(user), token: issued.token }, 201);
  });

  app.delete('/api/users/:name', async (c) => {
    ownerOnly(c, 'revoke users');
    const name = c.req.param('name');
    if (!(await store.revokeUser(name))) {
      const user = await store.getUser(name);
      if (user?.revokedAt !== undefined) return c.body(null, 204);
      throw new ApiError(404, 'unknown_user', `There is no user ${name}; GET /api/users lists them.`, {
        user: name,
      });
    }
    return c.body(null, 204);
  });
}
