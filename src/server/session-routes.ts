import type { Context, Hono } from 'hono';
import { FINAL_TURN_STATES } from '../core/session-records.js';
import type { SessionRecord, TurnRecord } from '../core/session-store.js';
import { signalTopics } from '../core/signals.js';
import { callerOf } from './access.js';
import { ApiError } from './api-error.js';
import { messageShapes, sessionShape } from './api-shapes.js';
import { eventStream } from './event-stream.js';
import { choiceField, jsonBody, stringField } from './json-body.js';
import { ownerIdOf } from './people.js';
import type { ServerDeps } from './server-deps.js';
import { ownedSession } from './session-owner.js';
import { refuseWhenStopping, sendMessage } from './start-turn.js';

/** The session routes: list, create, read, delete, send, stop, and the event stream. */
export function sessionRoutes(app: Hono, deps: ServerDeps): void {
  const { runtime, hub } = deps;
  const store = runtime.options.store;

  /** Sessions with an unfinished turn, here or in another process on the store. */
  const runningIds = async (): Promise<Set<string>> => {
    const unfinished = await store.listTurns({ status: ['running', 'waiting_approval'] });
    return new Set([...unfinished.map((t) => t.sessionId), ...hub.runningTurns().map((t) => t.sessionId)]);
  };
  const isRunning = async (id: string): Promise<boolean> =>
    hub.running(id) !== undefined ||
    (await store.listTurns({ sessionId: id, status: ['running', 'waiting_approval'] })).length > 0;

  /**
   * The newest event of the session's finished turns: a stream after it replays an unfinished turn
   * whole (its text so far is in no message yet), then goes on live.
   */
  const historyEnd = async (id: string): Promise<number> => {
    const [unfinished] = await store.listTurns({ sessionId: id, status: ['running', 'waiting_approval'] });
    if (unfinished === undefined) return store.lastTurnEventId(id);
    const [first] = await store.listTurnEvents({ turnId: unfinished.id, limit: 1 });
    return store.lastTurnEventId(id, first?.id);
  };

  const mustSession = (c: Context): Promise<SessionRecord> =>
    ownedSession(c, deps, c.req.param('id') as string);

  app.get('/api/sessions', async (c) => {
    const [sessions, running] = await Promise.all([
      store.listSessions({ topLevel: true, userId: ownerIdOf(callerOf(c)) }),
      runningIds(),
    ]);
    return c.json({ sessions: sessions.map((s) => sessionShape(s, running.has(s.id))) });
  });

  app.post('/api/sessions', async (c) => {
    const body = await jsonBody(c);
    const title = stringField(body, 'title', false);
    const agent = stringField(body, 'agent', false);
    const agents = runtime.options.agents ?? {};
    if (agent !== undefined && !Object.hasOwn(agents, agent)) {
      const names = Object.keys(agents);
      throw new ApiError(
        400,
        'unknown_agent',
        `There is no agent "${agent}"; ${names.length ? `the configured agents are ${names.join(', ')}` : 'the config defines none'}.`,
        { field: 'agent' },
      );
    }
    const owner = ownerIdOf(callerOf(c));
    const session = await runtime.session(undefined, {
      ...(title !== undefined ? { title } : {}),
      ...(agent !== undefined ? { agent } : {}),
      ...(owner !== null ? { userId: owner } : {}),
    });
    const record = (await store.getSession(session.id)) as SessionRecord;
    return c.json(sessionShape(record, false), 201);
  });

  app.get('/api/sessions/:id', async (c) => {
    const record = await mustSession(c);
    // Read before the messages: every event up to it belongs to a turn whose messages are all read below.
    const lastEventId = await historyEnd(record.id);
    const messages = await store.listMessages(record.id);
    return c.json({
      session: sessionShape(record, await isRunning(record.id)),
      messages: messageShapes(messages),
      lastEventId: String(lastEventId),
    });
  });

  app.delete('/api/sessions/:id', async (c) => {
    const record = await mustSession(c);
    // The runtime refuses (turn_running) while a turn of the session or its children is unfinished.
    await runtime.deleteSession(record.id);
    return c.body(null, 204);
  });

  app.post('/api/sessions/:id/messages', async (c) => {
    refuseWhenStopping(deps);
    const record = await mustSession(c);
    const body = await jsonBody(c);
    const text = stringField(body, 'text', true) as string;
    const mode = choiceField(body, 'mode', ['agent', 'plan'] as const);
    const turn = await sendMessage(deps, record.id, text, mode);
    if (wantsStream(c))
      return eventStream(c, hub.subscribe(record.id, { after: 0, turnId: turn.turnId }), deps.keepAliveMs);
    return c.json(
      { turnId: turn.turnId, events: `/api/sessions/${record.id}/events?turn=${turn.turnId}` },
      202,
    );
  });

  app.post('/api/sessions/:id/stop', async (c) => {
    const record = await mustSession(c);
    const turn = hub.running(record.id);
    if (turn) {
      turn.stop();
      // A hosted turn may park for an approval just before the stop lands: then it is stopped here.
      void stopOnceLetGo(deps, turn.turnId);
      return c.json({ turnId: turn.turnId }, 202);
    }
    // Run by another process on the store: the stop goes to it as a signal.
    const [elsewhere] = await store.listTurns({
      sessionId: record.id,
      status: ['running', 'waiting_approval'],
    });
    if (!elsewhere) {
      throw new ApiError(409, 'no_turn', `Session ${record.id} runs no turn, so there is nothing to stop.`, {
        sessionId: record.id,
      });
    }
    // Parked for an approval or queued for a worker, no process holds it: it is stopped here.
    if (await stopUnheld(deps, elsewhere)) {
      // A turn parked on its batch: the workers running its leaves stop them.
      await runtime.signals.publish(signalTopics.stopTurn(record.id), elsewhere.id);
      return c.json({ turnId: elsewhere.id }, 202);
    }
    await runtime.signals.publish(signalTopics.stopTurn(record.id), elsewhere.id);
    void stopOnceLetGo(deps, elsewhere.id);
    return c.json({ turnId: elsewhere.id }, 202);
  });

  app.get('/api/sessions/:id/events', async (c) => {
    const record = await mustSession(c);
    const after = eventIdOf(c.req.header('last-event-id') ?? c.req.query('after'));
    const turnId = c.req.query('turn');
    if (turnId !== undefined) {
      const turn = await store.getTurn(turnId);
      if (!turn || turn.sessionId !== record.id) {
        throw new ApiError(404, 'unknown_turn', `Session ${record.id} has no turn ${turnId}.`, { turnId });
      }
    }
    const subscription = hub.subscribe(record.id, { after, ...(turnId !== undefined ? { turnId } : {}) });
    return eventStream(c, subscription, deps.keepAliveMs);
  });
}

/** True when the client asks for the turn's events as the answer itself. */
function wantsStream(c: Context): boolean {
  return (c.req.header('accept') ?? '').includes('text/event-stream');
}

/** The event id a stream resumes after: a whole number ≥ 0 (absent: 0). */
function eventIdOf(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  if (!/^\d{1,15}$/.test(value.trim())) {
    throw new ApiError(
      400,
      'bad_request',
      `An event id is a whole number (the "id" of an event sent), not "${value}".`,
    );
  }
  return Number(value.trim());
}

/** Stops a turn no live process holds, keeping its end for every stream; false when one holds it. */
async function stopUnheld(deps: ServerDeps, turn: TurnRecord): Promise<boolean> {
  if (!(await deps.runtime.stopUnheldTurn(turn))) return false;
  await deps.hub.keepEnd(
    { type: 'turn-end', turnId: turn.id, status: 'stopped', message: 'The turn was stopped.' },
    turn.sessionId,
  );
  return true;
}

/** How long, and how often, a stop sent to another process checks that the turn did not slip past it. */
const LET_GO_CHECKS = 10;
const LET_GO_EVERY_MS = 1_000;

/**
 * After a stop was sent to the process running a turn (this one or another): that process may let the
 * turn go before the stop lands (a hosted turn parks for an approval), and then no one holds it. So the
 * turn is read once a second for a while: ended is done; no longer held is stopped here.
 */
async function stopOnceLetGo(deps: ServerDeps, turnId: string): Promise<void> {
  try {
    for (let check = 0; check < LET_GO_CHECKS; check++) {
      await new Promise((resolve) => setTimeout(resolve, LET_GO_EVERY_MS));
      const turn = await deps.runtime.options.store.getTurn(turnId);
      if (!turn || FINAL_TURN_STATES.includes(turn.status)) return;
      if (await stopUnheld(deps, turn)) return;
    }
  } catch (error) {
    deps.runtime.logger.log({
      level: 'warn',
      scope: 'server',
      message: `the stop of turn ${turnId} could not be checked: ${(error as Error).message}`,
    });
  }
}
