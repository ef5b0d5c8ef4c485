import { useState } from 'preact/hooks';
import type { Session } from '../api-types.js';
import { hashOf } from '../route.js';
import { visibleText } from '../visible-text.js';

/** One session in the list: its title opens it; deleting asks once more first. */
export function SessionItem({ session, onDelete }: { session: Session; onDelete: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const title = session.title.trim() === '' ? 'Untitled session' : visibleText(session.title);
  return (
    <li class="session">
      <a href={hashOf({ page: 'chat', id: session.id })}>{title}</a>
      <span class="quiet">
        {session.running ? 'running · ' : ''}
        <time dateTime={session.updatedAt}>{new Date(session.updatedAt).toLocaleString()}</time>
      </span>
      {confirming ? (
        <span class="actions">
          <button type="button" class="danger" onClick={onDelete}>
            Delete for good
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </span>
      ) : (
        <button type="button" aria-label={`Delete ${title}`} onClick={() => setConfirming(true)}>
          Delete
        </button>
      )}
    </li>
  );
}
