export * from './approval.js';
export * from './errors.js';
export * from './events.js';
export * from './json.js';
export * from './logger.js';
export * from './model.js';
export * from './tool.js';
export * from './tool-rejection.js';
