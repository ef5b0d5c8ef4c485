import type { Hono } from 'hono';
import { ApiError } from './api-error.js';
import type { ServerDeps } from './server-deps.js';

/** The Tools page routes (wired to the runtime's stored switches once they exist). */
export function toolRoutes(app: Hono, _deps: ServerDeps): void {
  const later = (): never => {
    throw new ApiError(501, 'not_implemented', 'The Tools page is not served yet.');
  };
  app.get('/api/tools', later);
  app.put('/api/tools/:name', later);
}
