import type { Context, Hono } from 'hono';
import { ToolseamError } from '../core/errors.js';
import type { SessionRecord } from '../core/session-store.js';
import { signalTopics } from '../core/signals.js';
import { QUEUED_OWNER } from '../runtime/resume/turn-owner.js';
import { callerOf } from './access.js';
import { ApiError } from './api-error.js';
import { messageShapes, sessionShape } from './api-shapes.js';
import { eventStream } from './event-stream.js';
import { choiceField, jsonBody, stringField } from './json-body.js';
import { ownerIdOf } from './people.js';
import type { ServerDeps } from './server-deps.js';
import { ownedSession } from './session-owner.js';
import { refuseWhenStopping, resumeOrphan, sendMessage } from './start-turn.js';

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

  /** Takes up a parked turn and stops it; false when a worker took it first (the signal reaches that one). */
  const stopParked = async (turnId: string): Promise<boolean> => {
    try {
      (await resumeOrphan(deps, turnId)).stop();
      return true;
    } catch (error) {
      if (error instanceof ToolseamError && error.code === 'turn_busy') return false;
      throw error;
    }
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
    // Parked while it waits for an approval (hosted mode), it is driven by no process that could hear
    // the signal: this one takes it up and stops it, so it ends as stopped in the store and every stream.
    if (elsewhere.owner === QUEUED_OWNER && (await stopParked(elsewhere.id))) {
      return c.json({ turnId: elsewhere.id }, 202);
    }
    await runtime.signals.publish(signalTopics.stopTurn(record.id), elsewhere.id);
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
