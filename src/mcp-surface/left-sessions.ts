import { answerLooseCalls } from '../runtime/resume/abandoned-turns.js';
import type { Runtime } from '../runtime/runtime.js';
import { servingModel } from './serving-model.js';

/**
 * Ends the turns of client connections whose `mcp-serve` process died (a crash, a killed client): no
 * client can come back to them, and nothing else can go on with them (they have no model). Their calls
 * still open are answered as interrupted and their questions closed, so `toolseam sessions` no longer
 * lists them as waiting. Returns how many were ended.
 */
export async function endLeftCallSessions(runtime: Runtime): Promise<number> {
  const store = runtime.options.store;
  let ended = 0;
  for (const turn of await runtime.orphanedTurns()) {
    if (turn.provider !== servingModel.provider || turn.model !== servingModel.model) continue;
    await answerLooseCalls(store, { turnId: turn.id }, 'the MCP server that took it stopped');
    const moved = await store.setTurnStatus(turn.id, 'interrupted', {
      from: ['running', 'waiting_approval'],
      fromOwner: turn.owner ?? null,
      error: 'the MCP server that held this client connection stopped',
    });
    if (moved) ended += 1;
  }
  return ended;
}
