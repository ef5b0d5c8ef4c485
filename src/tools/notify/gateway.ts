import type { JsonValue } from '../../core/json.js';
import type { ChannelConfig, NotifyService } from './notify-config.js';

/** What a service takes in one message, as its documentation gives it. */
export interface ServiceLimits {
  /** The service's name as messages say it. */
  readonly label: string;
  /** The longest text, in `unit`s. */
  readonly maxText: number;
  readonly unit: 'characters' | 'bytes';
  /** The longest text sent with an attachment (a caption), when it differs. */
  readonly maxCaption?: number;
  /** How many structured blocks one message takes (0: none). */
  readonly maxBlocks: number;
  /** Undefined when the service takes no files this way; else the largest and (optionally) the endings it takes. */
  readonly attachments?: { readonly maxBytes: number; readonly types?: readonly string[] | undefined };
}

/** A workspace file to send, found and checked where the tool reads it. */
export interface AttachmentRef {
  /** Where it really is (links resolved). */
  readonly path: string;
  /** The name it is sent under. */
  readonly name: string;
  readonly size: number;
  /** Its media type, from its name. */
  readonly type: string;
}

/** What one message says. */
export interface OutgoingMessage {
  readonly text: string;
  /** Structured blocks in the service's own form (Slack blocks, Discord embeds, the webhook's as given). */
  readonly blocks?: readonly JsonValue[] | undefined;
  readonly attachment?: AttachmentRef | undefined;
}

/** Why a message would not be sent, as the tool and the send both say it. */
export interface NotifyRefusal {
  readonly code: string;
  readonly message: string;
  readonly hints?: readonly string[];
}

/** A dry run's answer: would send, or would not and why. */
export type Verdict = { readonly ok: true } | { readonly refusal: NotifyRefusal };

/** How one attempt to send ended. */
export type Delivery =
  | { readonly kind: 'sent'; readonly receipt?: string | undefined }
  /** Did not get through for now (rate limit, server trouble, connection lost): try again, after `afterMs` when the service said. */
  | { readonly kind: 'retry'; readonly reason: string; readonly afterMs?: number | undefined }
  /** The service refused it: sending it again would be refused again. */
  | { readonly kind: 'refused'; readonly refusal: NotifyRefusal };

/** The outbound HTTP a gateway may use: only to the configured gateways' hosts. */
export type GatewayFetch = (url: string, init: RequestInit) => Promise<Response>;

/** One configured channel's adapter: its dry run and its send, over the service's own HTTP API. */
export interface Gateway {
  readonly channel: string;
  readonly service: NotifyService;
  /** What one message may hold on this channel (text, blocks, files). */
  readonly limits: ServiceLimits;
  /** The hosts it sends to, or undefined while its address is not known (its variable is unset). */
  hosts(): readonly string[] | undefined;
  /** "Would this send?" without sending: the local checks, then a remote one where the service has one without a side effect. */
  check(message: OutgoingMessage, signal?: AbortSignal): Promise<Verdict>;
  /** Sends once; `key` is the message's idempotency key (sent where the service takes one). */
  send(message: OutgoingMessage, key: string, signal?: AbortSignal): Promise<Delivery>;
}

/** What every adapter is built with. */
export interface GatewayDeps {
  readonly config: ChannelConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly fetch: GatewayFetch;
}

/** A refusal with its code and hints. */
export function refusal(
  code: string,
  message: string,
  ...hints: string[]
): { readonly refusal: NotifyRefusal } {
  return { refusal: { code, message, ...(hints.length > 0 ? { hints } : {}) } };
}

/** The dry run's "would send". */
export const WOULD_SEND: Verdict = { ok: true };
