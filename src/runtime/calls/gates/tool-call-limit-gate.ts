import type { Gate } from './gate.js';

/** A turn runs at most `maxToolCalls` calls. */
export const toolCallLimitGate: Gate = (_call, env, state) => {
  if (state.toolCalls < env.limits.maxToolCalls) return undefined;
  const plain = `this turn already ran its limit of ${env.limits.maxToolCalls} tool calls`;
  const reason = `${plain}; finish with what you have`;
  return { by: 'loop_breaker', reason, notRun: 'limit_reached', plain };
};
