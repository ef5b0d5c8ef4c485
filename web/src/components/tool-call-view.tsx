import type { ToolCallEntry } from '../chat-entry.js';
import { visibleJson, visibleText } from '../visible-text.js';

const STATE_WORDS: Record<ToolCallEntry['state'], string> = {
  running: 'running',
  waiting: 'waiting for your answer',
  done: 'done',
  failed: 'failed',
  refused: 'not run',
};

/** A tool call: its tool, arguments, how it went, and its result or why it was refused. */
export function ToolCallView({ call }: { call: ToolCallEntry }) {
  const refused = call.state === 'refused';
  return (
    <article
      class={`call ${call.state}`}
      aria-label={`Tool call ${visibleText(call.tool)}, ${STATE_WORDS[call.state]}`}
    >
      <p class="call-head">
        <span class="tool-name">{visibleText(call.tool)}</span>
        <span class="badge">{STATE_WORDS[call.state]}</span>
      </p>
      {call.arguments !== undefined && (
        <details open={call.state === 'running' || call.state === 'waiting'}>
          <summary>Arguments</summary>
          <pre>{visibleJson(call.arguments)}</pre>
        </details>
      )}
      {refused && call.reason !== undefined && <p class="why">Why: {visibleText(call.reason)}</p>}
      {call.content !== undefined && (
        <details open>
          <summary>{refused ? 'What the model was told' : 'Result'}</summary>
          <pre>{visibleText(call.content)}</pre>
        </details>
      )}
    </article>
  );
}
