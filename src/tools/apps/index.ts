/** Installed apps: folders with a `toolseam-app.json` whose entry module exports tools. */
export { APP_MANIFEST_FILE, AppLoadError, type AppManifest, readAppManifest } from './app-manifest.js';
export { type AppToolkit, appToolkit } from './app-toolkit.js';
export { hostedAppAt, noteHostedApp } from './hosted-code.js';
export { type AppContext, type AppToolProvider, type LoadAppOptions, loadApp } from './load-app.js';
