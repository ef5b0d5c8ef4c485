import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { RuntimeToolContext } from './runtime-tool.js';

/** The narrow context a runtime tool's call gets from its turn. */
export function runtimeToolContext(env: TurnEnvironment, callId: string): RuntimeToolContext {
  return {
    sessionId: env.sessionId,
    turnId: env.turnId,
    callId,
    signal: env.signal,
    emit: env.emit,
    store: env.store,
    offeredNames: env.surface.offered.map((t) => t.name),
    mode: env.gates.mode,
    inLeaf: env.leaf !== undefined,
  };
}
