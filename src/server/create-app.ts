import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { accessGuard } from './access.js';
import { ApiError, apiErrorOf, errorBody } from './api-error.js';
import { approvalRoutes } from './approval-routes.js';
import { BODY_LIMIT_BYTES, bodyTooLarge } from './json-body.js';
import { otherRoutes } from './other-routes.js';
import type { ServerDeps } from './server-deps.js';
import { sessionRoutes } from './session-routes.js';
import { toolRoutes } from './tool-routes.js';
import { userRoutes } from './user-routes.js';

/** The Hono app of `toolseam serve`: the API under /api/, the page at /. */
export function createApp(deps: ServerDeps): Hono {
  const app = new Hono();
  const logger = deps.runtime.logger;

  app.onError((error, c) => {
    const api =
      error instanceof HTTPException && !(error instanceof ApiError)
        ? new ApiError(
            error.status as ApiError['status'],
            'bad_request',
            error.message || 'The request could not be read.',
          )
        : apiErrorOf(error);
    if (api.status >= 500 && api.code === 'internal') {
      logger.log({
        level: 'error',
        scope: 'server',
        message: `${c.req.method} ${c.req.path}: ${(error as Error).stack ?? error}`,
      });
    }
    // The rest of a refused body is never read, so the connection cannot carry another request.
    const headers = api.status === 413 ? { connection: 'close' } : undefined;
    return c.json(errorBody(api.code, api.message, api.details), api.status, headers);
  });
  app.notFound((c) =>
    c.json(
      errorBody(
        'not_found',
        `There is nothing at ${c.req.method} ${c.req.path}; GET /api/openapi.json lists the API.`,
      ),
      404,
    ),
  );

  app.use(
    '*',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
      crossOriginResourcePolicy: 'same-origin',
      // Plain HTTP on loopback; a proxy that adds TLS sets its own.
      strictTransportSecurity: false,
    }),
  );
  app.use('*', accessGuard(deps.access));
  // A body declared too large is refused before it is read; one that does not say its size is cut off
  // where it passes the limit, as it is read (jsonBody).
  app.use('/api/*', async (c, next) => {
    if (Number(c.req.header('content-length') ?? 0) > BODY_LIMIT_BYTES) throw bodyTooLarge();
    await next();
  });

  otherRoutes(app, deps);
  sessionRoutes(app, deps);
  approvalRoutes(app, deps);
  toolRoutes(app, deps);
  userRoutes(app, deps);
  app.all('/api/*', (c) =>
    c.json(
      errorBody(
        'not_found',
        `There is nothing at ${c.req.method} ${c.req.path}; GET /api/openapi.json lists the API.`,
      ),
      404,
    ),
  );
  app.use('*', pageAssets(deps.webRoot));
  app.get('/', (c) =>
    c.text(
      'toolseam serve is running, but its web page has not been built: run `npm run build` in the toolseam folder, then reload. The API is under /api/ (GET /api/openapi.json describes it).\n',
    ),
  );
  return app;
}

/** Serves the built page once `dist/web/index.html` is there (checked per request: it may be built while serving). */
function pageAssets(root: string | undefined): MiddlewareHandler {
  let serve: MiddlewareHandler | undefined;
  return async (c, next) => {
    if (root === undefined || c.req.method !== 'GET' || !existsSync(join(root, 'index.html'))) return next();
    serve ??= serveStatic({ root });
    return serve(c, next);
  };
}
