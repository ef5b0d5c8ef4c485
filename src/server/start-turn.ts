import { ToolseamError } from '../core/errors.js';
import type { RuntimeEvent } from '../core/events.js';
import type { SendOptions } from '../runtime/runtime.js';
import { ApiError } from './api-error.js';
import type { ServerDeps } from './server-deps.js';
import type { HubTurn } from './turn-hub.js';

/** Hands a started turn's events to the hub; the first event names the turn. */
async function handOver(
  deps: ServerDeps,
  events: AsyncIterable<RuntimeEvent>,
  controller: AbortController,
): Promise<HubTurn> {
  const iterator = events[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done || first.value.type !== 'turn-start') {
    throw new ApiError(500, 'internal', 'The turn sent no start event.');
  }
  return deps.hub.run(first.value, iterator, () => controller.abort());
}

/** Starts a turn of `sessionId` with the person's message, run by the hub. */
export async function sendMessage(
  deps: ServerDeps,
  sessionId: string,
  text: string,
  mode: SendOptions['mode'],
): Promise<HubTurn> {
  refuseWhenStopping(deps);
  if (deps.hub.running(sessionId)) throw turnRunning(sessionId);
  if (deps.queued) return queuedTurn(deps, sessionId, text, mode);
  const controller = new AbortController();
  const session = await deps.runtime.session(sessionId);
  const events = await session.send(text, { signal: controller.signal, ...(mode ? { mode } : {}) });
  return handOver(deps, events, controller);
}

/** Hosted mode: the turn is stored and put on the job queue; a worker runs it and keeps its events. */
async function queuedTurn(
  deps: ServerDeps,
  sessionId: string,
  text: string,
  mode: SendOptions['mode'],
): Promise<HubTurn> {
  let turnId: string;
  try {
    turnId = await (deps.queued as NonNullable<ServerDeps['queued']>)(sessionId, text, mode);
  } catch (error) {
    if (error instanceof ToolseamError && error.code === 'turn_running') throw turnRunning(sessionId);
    throw error;
  }
  return { sessionId, turnId, stop: () => undefined, ended: Promise.resolve() };
}

/** Takes over a turn a dead process left unfinished, run by the hub. */
export async function resumeOrphan(deps: ServerDeps, turnId: string): Promise<HubTurn> {
  const controller = new AbortController();
  const events = await deps.runtime.resumeTurn(turnId, { signal: controller.signal });
  return handOver(deps, events, controller);
}

/** Refuses new work once the server is stopping. */
export function refuseWhenStopping(deps: ServerDeps): void {
  if (!deps.state.stopping) return;
  throw new ApiError(
    503,
    'shutting_down',
    'The server is shutting down and starts no new turns; send again once it is back.',
  );
}

/** The refusal of a second turn on a session. */
export function turnRunning(sessionId: string): ApiError {
  return new ApiError(
    409,
    'turn_running',
    `Session ${sessionId} is already running a turn; wait for it to end (its events say when) or stop it first.`,
    { sessionId },
  );
}
