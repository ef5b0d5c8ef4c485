import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { Message, Session } from '../api-types.js';
import { chatReducer, initialChatState } from '../chat-state.js';
import { failureText } from '../failure-text.js';
import { historyEntries } from '../history-entries.js';
import { settledTurns, withoutLiveTurns } from '../settled-turns.js';
import { useSessionStream } from '../use-session-stream.js';
import { visibleText } from '../visible-text.js';
import { ApprovalCard } from './approval-card.js';
import { BatchProgress } from './batch-progress.js';
import { ChatLog } from './chat-log.js';
import { ErrorLine } from './error-line.js';
import { MessageBox } from './message-box.js';

/**
 * One session: its history, the running turn as it streams, approval cards, batch progress and the
 * message box. Turns that end are read back from the history, which is what the page shows of them.
 */
export function ChatPage({ sessionId }: { sessionId: string }) {
  const [state, dispatch] = useReducer(chatReducer, undefined, () => initialChatState());
  const [session, setSession] = useState<Session | undefined>();
  const [after, setAfter] = useState<string | undefined>();
  const [messages, setMessages] = useState<readonly Message[]>([]);
  const [error, setError] = useState<string | undefined>();
  const box = useRef<HTMLTextAreaElement>(null);

  // Asked before the first paint, not after it: a busy machine can hold an effect for frames.
  useLayoutEffect(() => {
    api.session(sessionId).then(
      (r) => {
        if (r.lastEventId) setAfter(r.lastEventId);
        setSession(r.session);
        setMessages(r.messages);
        dispatch({ type: 'running', running: r.session.running });
        const settled = settledTurns(r.messages, r.session.running);
        dispatch({ type: 'read-back', turnIds: settled, messages: r.messages.length });
      },
      (err) => setError(failureText(err)),
    );
    api.approvals(sessionId).then(
      (approvals) => dispatch({ type: 'approvals', approvals }),
      () => {},
    );
  }, [sessionId]);

  const connected = useSessionStream(sessionId, session !== undefined, after, (event) =>
    dispatch({ type: 'event', event }),
  );

  useEffect(() => {
    if (state.ended.length === 0) return;
    const turnIds = state.ended;
    let superseded = false;
    api.session(sessionId).then(
      (r) => {
        if (superseded) return;
        setMessages(r.messages);
        dispatch({ type: 'read-back', turnIds, messages: r.messages.length });
      },
      (err) => setError(failureText(err)),
    );
    return () => {
      superseded = true;
    };
  }, [sessionId, state.ended]);

  const send = async (text: string) => {
    const { turnId } = await api.send(sessionId, text);
    dispatch({ type: 'sent', turnId, text });
  };
  const stop = () => api.stop(sessionId).catch((err) => setError(failureText(err)));
  const answered = (id: string) => {
    dispatch({ type: 'approval-gone', id });
    box.current?.focus();
  };

  if (error && !session) {
    return (
      <section class="panel">
        <h1>Session</h1>
        <ErrorLine error={error} />
        <a href="#/">Back to the sessions</a>
      </section>
    );
  }
  const live = new Set(state.entries.map((e) => e.turnId));
  const title = session ? visibleText(session.title) || 'Untitled session' : 'Loading…';
  return (
    <section class="chat" aria-labelledby="chat-title">
      <div class="chat-head">
        <h1 id="chat-title">{title}</h1>
        <p class="quiet" aria-live="polite">
          {state.running ? 'A turn is running' : 'Ready'}
          {session && !connected ? ' · reconnecting…' : ''}
          {waiting(state.approvals.length)}
        </p>
      </div>
      <ChatLog
        entries={[
          ...historyEntries(withoutLiveTurns(messages, live), state.anchored, state.refusals),
          ...state.entries,
        ]}
        asking={new Set(state.approvals.map((a) => a.callId))}
        busy={state.running}
      />
      {state.waitingMs !== undefined && (
        <p class="quiet">Waiting for the model ({Math.round(state.waitingMs / 1000)} s so far)…</p>
      )}
      {state.batches.map((b) => (
        <BatchProgress key={b.batchId} batch={b} />
      ))}
      {state.approvals.map((a) => (
        <ApprovalCard key={a.id} approval={a} onGone={() => answered(a.id)} />
      ))}
      <ErrorLine error={error} />
      <MessageBox boxRef={box} running={state.running} onSend={send} onStop={stop} />
    </section>
  );
}

/** The status line's word on approvals, which a screen reader announces as it changes. */
function waiting(count: number): string {
  if (count === 0) return '';
  return count === 1 ? ' · an approval is waiting for you' : ` · ${count} approvals are waiting for you`;
}
