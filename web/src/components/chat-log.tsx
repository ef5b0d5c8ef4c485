import { useEffect, useRef } from 'preact/hooks';
import type { ChatEntry } from '../chat-entry.js';
import { visibleText } from '../visible-text.js';
import { ToolCallView } from './tool-call-view.js';

interface ChatLogProps {
  readonly entries: readonly ChatEntry[];
  /** The calls an approval waits on. */
  readonly asking: ReadonlySet<string>;
  /** A turn is streaming: screen readers wait for it to end instead of reading each piece. */
  readonly busy: boolean;
}

/**
 * The chat's entries in order; it follows new text while the reader is at its end.
 */
export function ChatLog({ entries, asking, busy }: ChatLogProps) {
  const end = useRef<HTMLDivElement>(null);
  const last = entries.at(-1);
  const growth = `${entries.length}:${last?.kind === 'text' ? last.text.length : last?.kind === 'tool' ? last.state : ''}`;
  useEffect(() => {
    const atEnd = innerHeight + scrollY >= document.documentElement.scrollHeight - 160;
    if (atEnd) end.current?.scrollIntoView({ block: 'end' });
  }, [growth]);

  if (entries.length === 0) return <p class="quiet">Nothing said yet. Write below to start.</p>;
  return (
    <div class="log" role="log" aria-label="Conversation" aria-busy={busy}>
      {entries.map((e) =>
        e.kind === 'tool' ? (
          <ToolCallView key={e.key} call={e} asking={asking.has(e.callId)} />
        ) : e.kind === 'notice' ? (
          <p key={e.key} class={`notice ${e.tone}`}>
            {visibleText(e.text)}
          </p>
        ) : (
          <div key={e.key} class={`msg ${e.role}`}>
            <p class="who">{e.role === 'user' ? 'You' : 'Assistant'}</p>
            <div class="text">{visibleText(e.text)}</div>
          </div>
        ),
      )}
      <div ref={end} />
    </div>
  );
}
