import type { ToolCallEntry } from '../chat-entry.js';
import { visibleJson, visibleText } from '../visible-text.js';

const STATE_WORDS: Record<ToolCallEntry['state'] | 'waiting', string> = {
  running: 'running',
  waiting: 'waiting for your answer',
  done: 'done',
  failed: 'failed',
  refused: 'not run',
};

/** A tool call (`asking`: an approval waits on it): its tool, arguments, how it went, and its result or why it was refused. */
export function ToolCallView({ call, asking }: { call: ToolCallEntry; asking: boolean }) {
  const refused = call.state === 'refused';
  const state = call.state === 'running' && asking ? 'waiting' : call.state;
  return (
    <article
      class={`call ${state}`}
      aria-label={`Tool call ${visibleText(call.tool)}, ${STATE_WORDS[state]}`}
    >
      <p class="call-head">
        <span class="tool-name">{visibleText(call.tool)}</span>
        <span class="badge">{STATE_WORDS[state]}</span>
      </p>
      {call.arguments !== undefined && (
        <details open={call.state === 'running'}>
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
