import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The tsx loader as an absolute URL, so a child started in another folder can run TypeScript sources. */
export const TSX_LOADER = pathToFileURL(
  join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs'),
).href;
