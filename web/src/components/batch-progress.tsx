import type { BatchView, LeafView } from '../chat-state.js';
import { visibleText } from '../visible-text.js';

const LEAF_WORDS: Record<LeafView['state'], string> = {
  started: 'working',
  'tool-call': 'calling a tool',
  'approval-needed': 'waiting for your answer',
  done: 'done',
  failed: 'failed',
  timed_out: 'timed out',
};

const FINISHED = new Set<LeafView['state']>(['done', 'failed', 'timed_out']);

/** A subagent batch: how many leaves finished, and where each one is. */
export function BatchProgress({ batch }: { batch: BatchView }) {
  const finished = batch.leaves.filter((l) => FINISHED.has(l.state)).length;
  const label = `Subagents: ${finished} of ${batch.leaves.length} finished`;
  return (
    <section class="batch" aria-label={label}>
      <h2>{label}</h2>
      <progress value={finished} max={batch.leaves.length} aria-hidden="true" />
      <ul>
        {batch.leaves.map((l) => (
          <li key={l.leafId} class={`leaf ${l.state}`}>
            <span>{visibleText(l.title)}</span> <span class="badge">{LEAF_WORDS[l.state]}</span>
            {l.detail && <span class="quiet"> {visibleText(l.detail)}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
