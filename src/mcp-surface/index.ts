export { type ApproveCommand, plainApproveCommand } from './approval-words.js';
export { endLeftCallSessions } from './left-sessions.js';
export { type HttpServeOptions, type HttpServing, serveHttp } from './serve-http.js';
export { serveStdio } from './serve-stdio.js';
export { servedBy } from './served-tools.js';
export { servingModel } from './serving-model.js';
export { type ToolServer, type ToolServerOptions, toolServer } from './tool-server.js';
