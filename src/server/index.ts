export { OPENAPI_DOCUMENT } from './openapi-document.js';
export { isLoopback, type RunningServer, type ServeOptions, startServer } from './start-server.js';
