import type { RefObject } from 'preact';
import { useState } from 'preact/hooks';
import { failureText } from '../failure-text.js';
import { ErrorLine } from './error-line.js';

interface MessageBoxProps {
  readonly boxRef: RefObject<HTMLTextAreaElement | null>;
  readonly running: boolean;
  readonly onSend: (text: string) => Promise<void>;
  readonly onStop: () => void;
}

/** Where the person writes: Enter sends, Shift+Enter starts a new line; Stop while a turn runs. */
export function MessageBox({ boxRef, running, onSend, onStop }: MessageBoxProps) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();

  const send = async () => {
    if (busy || text.trim() === '') return;
    setBusy(true);
    setError(undefined);
    try {
      await onSend(text);
      setText('');
    } catch (err) {
      setError(failureText(err));
    } finally {
      setBusy(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      void send();
    }
  };
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label for="message">Message</label>
      <textarea
        id="message"
        ref={boxRef}
        rows={3}
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        aria-describedby="message-hint"
        autofocus
      />
      <p id="message-hint" class="quiet">
        Enter sends · Shift+Enter starts a new line
      </p>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy || text.trim() === ''}>
          Send
        </button>
        {running && (
          <button type="button" onClick={onStop}>
            Stop
          </button>
        )}
      </div>
      <ErrorLine error={error} />
    </form>
  );
}
