import { defineTool } from '../define-tool.js';
import { field } from '../field.js';
import { inProcessProvider } from '../in-process-provider.js';

/** The part of toolseam an app's entry function receives, so an app can use field specs without installing toolseam. */
export const appToolkit = { defineTool, field, inProcessProvider } as const;

/** The toolkit's type, for app authors writing TypeScript. */
export type AppToolkit = typeof appToolkit;
