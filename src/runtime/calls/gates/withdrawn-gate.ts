import type { PromptGate } from './gate.js';

/** A tool switched off or whose provider was removed since the turn began no longer runs. */
export const withdrawnGate: PromptGate = (call, env) => call.target.withdrawn(env);
