import type { Hono } from 'hono';
import { ApiError } from './api-error.js';
import { jsonBody } from './json-body.js';
import type { ServerDeps } from './server-deps.js';
import { ownerOnly } from './session-owner.js';

/** The Tools page: every tool with its status and switch, and switching one by its real name. */
export function toolRoutes(app: Hono, deps: ServerDeps): void {
  const { runtime } = deps;

  app.get('/api/tools', async (c) => c.json(await runtime.toolsPage()));

  app.put('/api/tools/:name', async (c) => {
    ownerOnly(c, 'switch a tool on or off (a switch applies to every session on the host)');
    const name = c.req.param('name');
    const body = await jsonBody(c);
    if (typeof body.on !== 'boolean') {
      throw new ApiError(
        400,
        'bad_request',
        '"on" must be true (switch the tool on) or false (switch it off).',
        {
          field: 'on',
        },
      );
    }
    return c.json(await runtime.switchTool(name, body.on, { by: 'http' }));
  });
}
