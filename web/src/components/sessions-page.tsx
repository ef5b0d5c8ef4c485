import { useLayoutEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { Session } from '../api-types.js';
import { failureText } from '../failure-text.js';
import { hashOf } from '../route.js';
import { ErrorLine } from './error-line.js';
import { SessionItem } from './session-item.js';

/** The sessions list: open one, start one, delete one. */
export function SessionsPage() {
  const [sessions, setSessions] = useState<Session[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [title, setTitle] = useState('');

  const load = () =>
    api.sessions().then(
      (list) => {
        setSessions(list);
        setError(undefined);
      },
      (err) => setError(failureText(err)),
    );
  // Asked before the first paint, not after it: a busy machine can hold an effect for frames.
  useLayoutEffect(() => {
    void load();
  }, []);

  const create = async (e: Event) => {
    e.preventDefault();
    try {
      const session = await api.createSession(title.trim() || undefined);
      location.hash = hashOf({ page: 'chat', id: session.id });
    } catch (err) {
      setError(failureText(err));
    }
  };
  const remove = async (id: string) => {
    try {
      await api.deleteSession(id);
      setSessions((list) => list?.filter((s) => s.id !== id));
    } catch (err) {
      setError(failureText(err));
    }
  };

  return (
    <section class="panel" aria-labelledby="sessions-title">
      <h1 id="sessions-title">Sessions</h1>
      <form class="new-session" onSubmit={create}>
        <label for="new-title">New session</label>
        <input
          id="new-title"
          placeholder="Title (optional)"
          value={title}
          onInput={(e) => setTitle(e.currentTarget.value)}
        />
        <button type="submit">Start</button>
      </form>
      <ErrorLine error={error} />
      {sessions === undefined ? (
        !error && <p class="quiet">Loading…</p>
      ) : sessions.length === 0 ? (
        <p class="quiet">No sessions yet.</p>
      ) : (
        <ul class="sessions">
          {sessions.map((s) => (
            <SessionItem key={s.id} session={s} onDelete={() => remove(s.id)} />
          ))}
        </ul>
      )}
    </section>
  );
}
