import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { failureText } from '../failure-text.js';
import { ErrorLine } from './error-line.js';

/** Asks for the server's token when the API wants one, and signs in with it (a session cookie). */
export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.signIn(token.trim());
      onSignedIn();
    } catch (err) {
      setError(failureText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <p>
        This server asks for its token. It was printed when the server first started, and is kept beside its
        database.
      </p>
      <form onSubmit={submit}>
        <label for="token">Token</label>
        <input
          id="token"
          type="password"
          autocomplete="current-password"
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
          required
          autofocus
        />
        <button type="submit" disabled={busy || token.trim() === ''}>
          Sign in
        </button>
        <ErrorLine error={error} />
      </form>
    </section>
  );
}
