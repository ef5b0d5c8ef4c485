import { field } from '../fields/field.js';
import { appInProcessProvider, defineAppTool } from './left-out-tools.js';

/**
 * The part of toolseam an app's entry function receives, so an app can use field specs without installing
 * toolseam. A tool defined in a way that cannot work is left out on its own; the app's other tools still load.
 */
export const appToolkit = {
  defineTool: defineAppTool,
  field,
  inProcessProvider: appInProcessProvider,
} as const;

/** The toolkit's type, for app authors writing TypeScript. */
export type AppToolkit = typeof appToolkit;
