import type { ChatMessage } from '../../core/model.js';

/** Every tool-call id a history holds, calls' and results' alike, in order. */
function historyCallIds(history: readonly ChatMessage[]): string[] {
  const ids: string[] = [];
  for (const m of history) {
    if (m.role === 'tool') ids.push(m.toolCallId);
    else if (m.role === 'assistant') for (const call of m.toolCalls ?? []) ids.push(call.id);
  }
  return ids;
}

/**
 * Tool-call ids as a wire takes them, for one request: an id that `fits` is kept; any other (from another
 * provider's turns) travels as `derive(id, 0)`, stable and the same for the call and its result, or as
 * `derive(id, 1)`, `derive(id, 2)`… while that would clash with an id already taken in the request.
 */
export function callIdMap(
  history: readonly ChatMessage[],
  fits: RegExp,
  derive: (id: string, salt: number) => string,
): (id: string) => string {
  const ids = historyCallIds(history);
  // The usual history, every id one the wire takes: nothing to map, and no set of its ids is built.
  if (ids.every((id) => fits.test(id))) return (id) => id;
  const taken = new Set(ids.filter((id) => fits.test(id)));
  const byId = new Map<string, string>();
  for (const id of ids) {
    if (taken.has(id) || byId.has(id)) continue;
    let safe = derive(id, 0);
    for (let salt = 1; taken.has(safe); salt += 1) safe = derive(id, salt);
    byId.set(id, safe);
    taken.add(safe);
  }
  return (id) => byId.get(id) ?? id;
}
