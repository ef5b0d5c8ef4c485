import type { CompactionRecord } from '../core/context-records.js';
import type { ListedSession } from '../core/session-records.js';
import type { SessionStore } from '../core/session-store.js';
import { visible } from './visible-text.js';

/** The compactions of each listed session that has any, by session id. */
export async function compactionsOf(
  store: SessionStore,
  sessions: readonly ListedSession[],
): Promise<Record<string, CompactionRecord[]>> {
  const found: Record<string, CompactionRecord[]> = {};
  for (const s of sessions) {
    const list = await store.listCompactions(s.id);
    if (list.length > 0) found[s.id] = list;
  }
  return found;
}

/** One line a session: how often its older turns were summarized, and the latest time. */
export function compactionRows(bySession: Readonly<Record<string, CompactionRecord[]>>): string[] {
  return Object.entries(bySession).map(([id, list]) => {
    const latest = list.at(-1) as CompactionRecord;
    const times = list.length === 1 ? 'once' : `${list.length} times`;
    return `  ${visible(id)}  summarized ${times}; latest ${latest.createdAt} (${latest.reason}): ${latest.messagesCovered} messages stand as a summary, about ${latest.tokensBefore} → ${latest.tokensAfter} tokens; every message stays stored`;
  });
}
