import type { Approval } from './api-types.js';

/** The event types a session's stream carries (the runtime's event types). */
export const STREAM_EVENT_TYPES = [
  'turn-start',
  'notice',
  'model-retry',
  'model-waiting',
  'tools-quarantined',
  'text-delta',
  'tool-call-start',
  'tool-call-end',
  'approval-request',
  'approval-resolved',
  'leaf',
  'turn-end',
] as const;

/** The fields every event of a session's stream carries. */
interface Base {
  /** The SSE id (set by the page from the message, not part of the data). */
  readonly id?: string;
  readonly sessionId?: string;
  readonly turnId?: string;
}

/** A person's answer as an approval-resolved event reports it. */
export type ResolvedDecision =
  | { readonly kind: 'approve'; readonly always?: string }
  | { readonly kind: 'deny'; readonly reason?: string }
  | 'expired'
  | 'cancelled';

/** The leaf states of a subagent batch. */
export type LeafState = 'started' | 'tool-call' | 'approval-needed' | 'done' | 'failed' | 'timed_out';

/** One event of a session's stream: a runtime event plus its session and turn. */
export type StreamEvent = Base &
  (
    | { readonly type: 'turn-start' }
    | { readonly type: 'notice'; readonly message: string }
    | {
        readonly type: 'model-retry';
        readonly provider: string;
        readonly reason: string;
        readonly attempt: number;
        readonly maxAttempts: number;
        readonly waitMs: number;
      }
    | { readonly type: 'model-waiting'; readonly waitedMs: number }
    | {
        readonly type: 'tools-quarantined';
        readonly provider: string;
        readonly tools: readonly string[];
        readonly said: string;
        readonly message: string;
      }
    | { readonly type: 'text-delta'; readonly text: string }
    | {
        readonly type: 'tool-call-start';
        readonly callId: string;
        readonly tool: string;
        readonly arguments: unknown;
      }
    | {
        readonly type: 'tool-call-end';
        readonly callId: string;
        readonly tool: string;
        readonly isError: boolean;
        readonly content: string;
        readonly notRun?: string;
        readonly refusedBy?: string;
        readonly reason?: string;
      }
    | { readonly type: 'approval-request'; readonly request: Approval }
    | { readonly type: 'approval-resolved'; readonly approvalId: string; readonly decision: ResolvedDecision }
    | {
        readonly type: 'leaf';
        readonly batchId: string;
        readonly leafId: string;
        readonly title: string;
        readonly state: LeafState;
        readonly detail?: string;
      }
    | {
        readonly type: 'turn-end';
        readonly status: string;
        readonly message: string;
        readonly errorCode?: string;
      }
  );

const KNOWN = new Set<string>(STREAM_EVENT_TYPES);

/** Reads one SSE message's data as a stream event, or undefined when it is not one the page knows. */
export function parseStreamEvent(data: string, id: string): StreamEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !KNOWN.has(type)) return undefined;
  return { ...(value as StreamEvent), ...(id === '' ? {} : { id }) };
}
