import type { JsonObject } from './json.js';

/** Where an outbox message stands: waiting to be sent (again), delivered, or given up on. */
export type OutboxStatus = 'pending' | 'sent' | 'refused' | 'failed';

/** A message to write to the outbox before anything is sent. */
export interface NewOutboxMessage {
  /** The configured channel it goes to. */
  readonly channel: string;
  /** The gateway kind (webhook, ntfy, slack, discord, telegram), kept for the record. */
  readonly service: string;
  /** What the gateway sends: text, blocks, the attachment's real path… as the adapter reads it. */
  readonly payload: JsonObject;
  /** Sent with every attempt where the service takes one, so a receiver can drop a repeat. */
  readonly idempotencyKey?: string | undefined;
  /** Who asked (a session id, an automation), for the record. */
  readonly origin?: string | undefined;
}

/** One outbox message as stored. */
export interface OutboxRecord {
  readonly id: string;
  readonly channel: string;
  readonly service: string;
  readonly payload: JsonObject;
  readonly idempotencyKey: string | undefined;
  readonly origin: string | undefined;
  readonly status: OutboxStatus;
  /** Attempts begun so far (a claim counts one). */
  readonly attempts: number;
  /** When it may next be attempted (ISO 8601). */
  readonly nextAttemptAt: string;
  /** The process holding it while it is sent, and until when its claim holds. */
  readonly claimedBy: string | undefined;
  readonly claimedUntil: string | undefined;
  /** The last failure's words (a refusal's, or why the last attempt did not get through). */
  readonly lastError: string | undefined;
  /** What the service answered on delivery (its message id), when it says one. */
  readonly receipt: string | undefined;
  readonly createdAt: string;
  readonly sentAt: string | undefined;
}

/** What an outbox claim asks for. */
export interface OutboxClaim {
  /** Who claims (a process id of the caller's making). */
  readonly owner: string;
  /** How long the claim holds; after that another process may take the message again. */
  readonly leaseMs: number;
  /** Only this message (when it is due and unclaimed). */
  readonly id?: string | undefined;
  /** Only messages to these channels (a process claims only what it can send). */
  readonly channels?: readonly string[] | undefined;
  /** The most messages to claim at once (default 10). */
  readonly limit?: number | undefined;
}

/** How one attempt ended. */
export type OutboxOutcome =
  | { readonly status: 'sent'; readonly receipt?: string | undefined }
  | { readonly status: 'refused' | 'failed'; readonly error: string }
  | { readonly status: 'pending'; readonly retryAt: number; readonly error: string };
