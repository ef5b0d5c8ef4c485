import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { accessGuard } from './access.js';
import { ApiError, apiErrorOf, errorBody } from './api-error.js';
import { approvalRoutes } from './approval-routes.js';
import { otherRoutes } from './other-routes.js';
import type { ServerDeps } from './server-deps.js';
import { sessionRoutes } from './session-routes.js';
import { toolRoutes } from './tool-routes.js';

/** The largest request body the API reads. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

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
    return c.json(errorBody(api.code, api.message, api.details), api.status);
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
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: BODY_LIMIT_BYTES,
      // The rest of the body is never read, so the connection cannot carry another request.
      onError: (c) =>
        c.json(
          errorBody(
            'body_too_large',
            `The body is over ${BODY_LIMIT_BYTES} bytes (1 MiB), the most this API reads.`,
          ),
          413,
          { connection: 'close' },
        ),
    }),
  );

  otherRoutes(app, deps);
  sessionRoutes(app, deps);
  approvalRoutes(app, deps);
  toolRoutes(app, deps);
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
