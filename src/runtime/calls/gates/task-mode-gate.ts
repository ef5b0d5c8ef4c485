import type { Gate } from './gate.js';

/**
 * In plan mode only tools that declare they only read run (a `safe` risk alone is not enough: a tool
 * that never asks may still change state, as memory_save and task_create do), and calls whose own work
 * keeps the plan mode. A tool nobody has is left to the unknown-tool gate.
 */
export const taskModeGate: Gate = (call, env) => {
  const def = call.target.definition;
  if (env.gates.mode !== 'plan' || !def || def.readOnly === true || call.target.keepsTaskMode)
    return undefined;
  return { by: 'task_mode', reason: 'this session is in plan mode, where only read-only tools run' };
};
