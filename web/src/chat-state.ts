import type { Approval } from './api-types.js';
import type { ChatEntry, NoticeEntry } from './chat-entry.js';
import type { LeafState, StreamEvent } from './stream-event.js';

/** One leaf of a subagent batch, as far as its events told. */
export interface LeafView {
  readonly leafId: string;
  readonly title: string;
  readonly state: LeafState;
  readonly detail?: string;
}

/** A subagent batch's progress. */
export interface BatchView {
  readonly batchId: string;
  readonly turnId: string;
  readonly leaves: readonly LeafView[];
}

/** Why the runtime refused a call, in words for a person. */
export interface Refusal {
  readonly reason?: string;
  readonly refusedBy?: string;
}

/** A notice kept after its turn was read back from the history, placed after `at` stored messages. */
export interface AnchoredNotice {
  readonly at: number;
  readonly entry: NoticeEntry;
}

/**
 * What one open session shows beyond its stored history: the entries of turns not yet read back from
 * the history, pending approvals, batch progress, and whether a turn runs.
 */
export interface ChatState {
  readonly lastEventId: string | undefined;
  readonly running: boolean;
  /** How long the model has been silent, while toolseam waits for it. */
  readonly waitingMs: number | undefined;
  readonly entries: readonly ChatEntry[];
  readonly anchored: readonly AnchoredNotice[];
  readonly approvals: readonly Approval[];
  /** Approvals answered or gone, so a pending list fetched a moment earlier cannot bring them back. */
  readonly gone: readonly string[];
  readonly batches: readonly BatchView[];
  /** Turns that ended and are still to be read back from the history. */
  readonly ended: readonly string[];
  /** Why calls of turns read back were refused, by call id (the history keeps only what the model read). */
  readonly refusals: Readonly<Record<string, Refusal>>;
  /** Turns read back (or in the history when the session was opened): the history shows them. */
  readonly readBack: readonly string[];
}

/** What changes a chat's state. */
export type ChatAction =
  | { readonly type: 'event'; readonly event: StreamEvent }
  | { readonly type: 'sent'; readonly turnId: string; readonly text: string }
  | { readonly type: 'approvals'; readonly approvals: readonly Approval[] }
  | { readonly type: 'approval-gone'; readonly id: string }
  | { readonly type: 'running'; readonly running: boolean }
  /** These turns are now in the history, which holds `messages` messages. */
  | { readonly type: 'read-back'; readonly turnIds: readonly string[]; readonly messages: number };

/** The state of a session just opened. */
export function initialChatState(running = false): ChatState {
  return {
    lastEventId: undefined,
    running,
    waitingMs: undefined,
    entries: [],
    anchored: [],
    approvals: [],
    gone: [],
    batches: [],
    ended: [],
    refusals: {},
    readBack: [],
  };
}

/** The chat's reducer: every change of a session's view goes through here. */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'event':
      return applyEvent(state, action.event);
    case 'sent':
      // A turn so quick that it was read back before its POST was answered is in the history already.
      if (state.readBack.includes(action.turnId)) return state;
      return { ...state, entries: withUserText(state.entries, action.turnId, action.text) };
    case 'approvals': {
      const known = new Set(action.approvals.map((a) => a.id));
      const live = state.approvals.filter((a) => !known.has(a.id));
      const fresh = action.approvals.filter((a) => !state.gone.includes(a.id));
      return { ...state, approvals: [...fresh, ...live] };
    }
    case 'approval-gone':
      return withoutApproval(state, action.id);
    case 'running':
      return { ...state, running: action.running };
    case 'read-back': {
      const done = new Set(action.turnIds);
      const kept = state.entries.filter(
        (e): e is NoticeEntry => done.has(e.turnId) && e.kind === 'notice' && e.keep,
      );
      const refusals = { ...state.refusals };
      for (const e of state.entries) {
        if (e.kind !== 'tool' || e.state !== 'refused' || !done.has(e.turnId)) continue;
        refusals[e.callId] = {
          ...(e.reason === undefined ? {} : { reason: e.reason }),
          ...(e.refusedBy === undefined ? {} : { refusedBy: e.refusedBy }),
        };
      }
      return {
        ...state,
        entries: state.entries.filter((e) => !done.has(e.turnId)),
        anchored: [...state.anchored, ...kept.map((entry) => ({ at: action.messages, entry }))],
        batches: state.batches.filter((b) => !done.has(b.turnId)),
        ended: state.ended.filter((id) => !done.has(id)),
        refusals,
        readBack: [...state.readBack, ...action.turnIds],
      };
    }
  }
}

function applyEvent(state: ChatState, event: StreamEvent): ChatState {
  if (event.id !== undefined && isOlder(event.id, state.lastEventId)) return state;
  // A stream replays a session from its start: turns the history holds already are shown from it.
  const approval = event.type === 'approval-request' || event.type === 'approval-resolved';
  if (!approval && event.turnId !== undefined && state.readBack.includes(event.turnId)) {
    return event.id === undefined ? state : { ...state, lastEventId: event.id };
  }
  const next = { ...state, lastEventId: event.id ?? state.lastEventId };
  const turnId = event.turnId ?? '';
  const key = `${event.id ?? `${turnId}:${state.entries.length}`}`;
  switch (event.type) {
    case 'turn-start':
      return { ...next, running: true, waitingMs: undefined };
    case 'text-delta':
      return { ...next, waitingMs: undefined, entries: withDelta(state.entries, turnId, key, event.text) };
    case 'model-waiting':
      return { ...next, waitingMs: event.waitedMs };
    case 'model-retry': {
      const text = `${event.provider}: ${event.reason}; asking again (attempt ${event.attempt} of ${event.maxAttempts}).`;
      return { ...next, entries: [...state.entries, notice(key, turnId, 'info', text, false)] };
    }
    case 'notice':
      return { ...next, entries: [...state.entries, notice(key, turnId, 'info', event.message, false)] };
    case 'tools-quarantined':
      return { ...next, entries: [...state.entries, notice(key, turnId, 'error', event.message, true)] };
    case 'tool-call-start':
      return { ...next, waitingMs: undefined, entries: withCall(state.entries, turnId, key, event) };
    case 'tool-call-end':
      return { ...next, entries: withCallEnd(state.entries, turnId, key, event) };
    case 'approval-request': {
      const request = event.request;
      if (state.gone.includes(request.id) || state.approvals.some((a) => a.id === request.id)) return next;
      return { ...next, approvals: [...state.approvals, request] };
    }
    case 'approval-resolved':
      return withoutApproval(next, event.approvalId);
    case 'leaf':
      return { ...next, batches: withLeaf(state.batches, turnId, event) };
    case 'turn-end': {
      const ended = state.ended.includes(turnId) ? state.ended : [...state.ended, turnId];
      const entries =
        event.status === 'done'
          ? state.entries
          : [...state.entries, notice(key, turnId, 'error', event.message, true)];
      return { ...next, running: false, waitingMs: undefined, entries, ended };
    }
  }
}

/** Event ids increase within the store; one not after the last seen was already applied. */
function isOlder(id: string, last: string | undefined): boolean {
  if (last === undefined) return false;
  if (/^\d+$/.test(id) && /^\d+$/.test(last)) return BigInt(id) <= BigInt(last);
  return id === last;
}

function notice(
  key: string,
  turnId: string,
  tone: NoticeEntry['tone'],
  text: string,
  keep: boolean,
): NoticeEntry {
  return { kind: 'notice', key, turnId, tone, text, keep };
}

function withoutApproval(state: ChatState, id: string): ChatState {
  return {
    ...state,
    approvals: state.approvals.filter((a) => a.id !== id),
    gone: state.gone.includes(id) ? state.gone : [...state.gone, id],
  };
}

/** The person's own message goes before whatever its turn already streamed. */
function withUserText(entries: readonly ChatEntry[], turnId: string, text: string): ChatEntry[] {
  const entry: ChatEntry = { kind: 'text', key: `user:${turnId}`, turnId, role: 'user', text };
  const at = entries.findIndex((e) => e.turnId === turnId);
  return at === -1 ? [...entries, entry] : [...entries.slice(0, at), entry, ...entries.slice(at)];
}

function withDelta(entries: readonly ChatEntry[], turnId: string, key: string, text: string): ChatEntry[] {
  const last = entries.at(-1);
  if (last?.kind === 'text' && last.role === 'assistant' && last.turnId === turnId) {
    return [...entries.slice(0, -1), { ...last, text: last.text + text }];
  }
  return [...entries, { kind: 'text', key, turnId, role: 'assistant', text }];
}

function withCall(
  entries: readonly ChatEntry[],
  turnId: string,
  key: string,
  event: Extract<StreamEvent, { type: 'tool-call-start' }>,
): ChatEntry[] {
  const { callId, tool } = event;
  return [
    ...entries,
    { kind: 'tool', key, turnId, callId, tool, arguments: event.arguments, state: 'running' },
  ];
}

function withCallEnd(
  entries: readonly ChatEntry[],
  turnId: string,
  key: string,
  event: Extract<StreamEvent, { type: 'tool-call-end' }>,
): ChatEntry[] {
  const refused = event.refusedBy !== undefined || event.notRun !== undefined;
  const ended = {
    state: refused ? ('refused' as const) : event.isError ? ('failed' as const) : ('done' as const),
    content: event.content,
    ...(event.reason === undefined ? {} : { reason: event.reason }),
    ...(event.refusedBy === undefined ? {} : { refusedBy: event.refusedBy }),
  };
  const at = entries.findIndex((e) => e.kind === 'tool' && e.callId === event.callId);
  const found = entries[at];
  if (found?.kind === 'tool') return entries.map((e, i) => (i === at ? { ...found, ...ended } : e));
  // A call refused before it started (a gate refused it) has no start event.
  const { callId, tool } = event;
  return [...entries, { kind: 'tool', key, turnId, callId, tool, arguments: undefined, ...ended }];
}

function withLeaf(
  batches: readonly BatchView[],
  turnId: string,
  event: Extract<StreamEvent, { type: 'leaf' }>,
): BatchView[] {
  const leaf: LeafView = {
    leafId: event.leafId,
    title: event.title,
    state: event.state,
    ...(event.detail === undefined ? {} : { detail: event.detail }),
  };
  const batch = batches.find((b) => b.batchId === event.batchId);
  if (!batch) return [...batches, { batchId: event.batchId, turnId, leaves: [leaf] }];
  const has = batch.leaves.some((l) => l.leafId === leaf.leafId);
  const leaves = has
    ? batch.leaves.map((l) => (l.leafId === leaf.leafId ? leaf : l))
    : [...batch.leaves, leaf];
  return batches.map((b) => (b === batch ? { ...b, leaves } : b));
}
