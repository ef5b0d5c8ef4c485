import type { PromptGate } from './gate.js';

/** Once the turn was stopped, no call runs. */
export const stoppedGate: PromptGate = (_call, env) =>
  env.signal.aborted ? { by: 'stopped', reason: '' } : undefined;
