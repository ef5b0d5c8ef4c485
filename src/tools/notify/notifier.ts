import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { JsonObject, JsonValue } from '../../core/json.js';
import { type Logger, silentLogger } from '../../core/logger.js';
import type { OutboxOutcome, OutboxRecord } from '../../core/outbox-records.js';
import type { OutboxBook } from '../../core/session-store.js';
import { nearMiss } from '../arguments/near-miss.js';
import type { AttachmentRef, Delivery, Gateway, NotifyRefusal, OutgoingMessage, Verdict } from './gateway.js';
import { refusal } from './gateway.js';
import { gatewayFor } from './gateways.js';
import { guardedFetch } from './guarded-fetch.js';
import type { ServiceLimits } from './local-checks.js';
import type { NotifyConfig } from './notify-config.js';
import { backoffMs } from './retry-after.js';

/** One message for the owner: what it says and where it goes (the default channel when none is named). */
export interface NotifyRequest {
  readonly channel?: string | undefined;
  readonly text: string;
  readonly blocks?: readonly JsonValue[] | undefined;
  readonly attachment?: AttachmentRef | undefined;
  /** Who sends it (a session id, an automation's name), kept with the outbox row. */
  readonly origin?: string | undefined;
}

/** How a send ended for the caller. */
export type NotifyResult =
  | {
      readonly status: 'sent';
      readonly id: string;
      readonly channel: string;
      readonly receipt?: string | undefined;
    }
  /** Written to the outbox and not through yet: it is tried again at `retryAt` (by this or the next process). */
  | {
      readonly status: 'queued';
      readonly id: string;
      readonly channel: string;
      readonly reason: string;
      readonly retryAt: string;
    }
  | {
      readonly status: 'refused';
      readonly channel?: string;
      readonly id?: string;
      readonly refusal: NotifyRefusal;
    }
  | { readonly status: 'failed'; readonly id: string; readonly channel: string; readonly error: string };

/** What a notifier is built with. */
export interface NotifierOptions {
  /** The config's "notify" section; undefined: no gateway (every message is refused saying so). */
  readonly config: NotifyConfig | undefined;
  /** Where the outbox lives (the session store). */
  readonly store: OutboxBook;
  /** Where credentials and `{"env"}` addresses are read (default: process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** The HTTP client under the host guard (default: Node's fetch). */
  readonly fetch?: typeof fetch;
  /** This process's name on its claims (default: host, pid and a random part). */
  readonly owner?: string;
  /** The clock, epoch ms (tests); match the store's. */
  readonly now?: () => number;
  /** How long a claim holds before another process may take the message over (default 2 minutes). */
  readonly leaseMs?: number;
  /** How often `start()` looks for due messages (default 5 s). */
  readonly pollMs?: number;
  readonly logger?: Logger;
}

/** The owner channel: dry runs, durable sends and the outbox's deliverer. */
export interface Notifier {
  /** The configured channel names (none without a "notify" section). */
  channels(): readonly string[];
  /** What one message may hold on a channel (the default one when none is named); undefined for no such channel. */
  limits(channel?: string): ServiceLimits | undefined;
  /** "Would this send?" without sending: the same check a send runs first, in the same words. */
  check(request: NotifyRequest, signal?: AbortSignal): Promise<Verdict>;
  /** Checks, writes the message to the outbox, and makes the first attempt; later ones are the deliverer's. */
  send(request: NotifyRequest, signal?: AbortSignal): Promise<NotifyResult>;
  /** Like `send`, for a caller that has just run `check` on this very request (the tools' preflight). */
  deliver(request: NotifyRequest, signal?: AbortSignal): Promise<NotifyResult>;
  /** Attempts every due outbox message no live claim holds (left by this process or a dead one); returns how many were sent. */
  deliverDue(): Promise<number>;
  /** Runs `deliverDue` now and every `pollMs` (the timer keeps no process alive). */
  start(): void;
  /** Stops the timer; an attempt under way finishes. */
  close(): Promise<void>;
}

const DEFAULT_MAX_ATTEMPTS = 8;

function messageOf(payload: JsonObject): OutgoingMessage {
  return {
    text: typeof payload.text === 'string' ? payload.text : '',
    ...(Array.isArray(payload.blocks) ? { blocks: payload.blocks } : {}),
    ...(payload.attachment ? { attachment: payload.attachment as unknown as AttachmentRef } : {}),
  };
}

const UNREADABLE = new Set(['ENOENT', 'EACCES', 'EISDIR', 'EPERM']);

/** One attempt; a failure the adapter did not answer for (its file went away, a bug) is told, never thrown into the loop. */
async function sendOnce(gateway: Gateway, row: OutboxRecord, signal?: AbortSignal): Promise<Delivery> {
  try {
    return await gateway.send(messageOf(row.payload), row.idempotencyKey ?? row.id, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const words = error instanceof Error ? error.message : String(error);
    if (code !== undefined && UNREADABLE.has(code)) {
      return {
        kind: 'refused',
        refusal: { code: 'attachment_missing', message: `The file could not be read to send it: ${words}` },
      };
    }
    return { kind: 'retry', reason: `sending failed: ${words}` };
  }
}

/** Builds the notifier over the configured gateways; outbound traffic goes only to their hosts. */
export function createNotifier(options: NotifierOptions): Notifier {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? 120_000;
  const logger = options.logger ?? silentLogger;
  const maxAttempts = options.config?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const gateways = new Map<string, Gateway>();
  const allowed = () => {
    const hosts = new Set<string>();
    for (const gateway of gateways.values()) for (const host of gateway.hosts() ?? []) hosts.add(host);
    return hosts;
  };
  const fetcher = guardedFetch(allowed, options.fetch ?? fetch);
  for (const config of Object.values(options.config?.channels ?? {})) {
    gateways.set(config.name, gatewayFor({ config, env, fetch: fetcher }));
  }
  const names = [...gateways.keys()];

  const resolve = (
    name: string | undefined,
  ): { readonly gateway: Gateway } | { readonly refusal: NotifyRefusal } => {
    if (names.length === 0) {
      return refusal(
        'not_configured',
        'No notify gateway is configured, so there is nowhere to send this.',
        'The person adds a "notify" section with a channel to toolseam.json.',
      );
    }
    const chosen = name ?? options.config?.default ?? (names.length === 1 ? names[0] : undefined);
    if (chosen === undefined) {
      return refusal('channel_required', `Name the channel to send to: ${names.join(', ')}.`);
    }
    const gateway = gateways.get(chosen);
    if (gateway !== undefined) return { gateway };
    const meant = nearMiss(chosen, names);
    return refusal(
      'unknown_channel',
      `There is no notify channel "${chosen}"; the channels are ${names.join(', ')}.`,
      ...(meant ? [`Did you mean "${meant}"?`] : []),
    );
  };

  const settle = async (row: OutboxRecord, delivery: Delivery): Promise<NotifyResult> => {
    const at = now();
    let outcome: OutboxOutcome;
    if (delivery.kind === 'sent') outcome = { status: 'sent', receipt: delivery.receipt };
    else if (delivery.kind === 'refused') outcome = { status: 'refused', error: delivery.refusal.message };
    else if (row.attempts >= maxAttempts) {
      outcome = {
        status: 'failed',
        error: `gave up after ${row.attempts} attempts; the last: ${delivery.reason}`,
      };
    } else {
      outcome = {
        status: 'pending',
        retryAt: at + (delivery.afterMs ?? backoffMs(row.attempts)),
        error: delivery.reason,
      };
    }
    const kept = await options.store.settleOutbox(row.id, owner, outcome);
    if (!kept)
      logger.log({
        level: 'warn',
        scope: 'notify',
        message: `outbox message ${row.id}: its claim ran out while it was sent`,
      });
    const base = { id: row.id, channel: row.channel };
    if (outcome.status === 'sent') return { status: 'sent', ...base, receipt: outcome.receipt };
    if (outcome.status === 'pending') {
      return {
        status: 'queued',
        ...base,
        reason: outcome.error,
        retryAt: new Date(outcome.retryAt).toISOString(),
      };
    }
    if (delivery.kind === 'refused') return { status: 'refused', ...base, refusal: delivery.refusal };
    return { status: 'failed', ...base, error: outcome.status === 'failed' ? outcome.error : '' };
  };

  const attemptRow = async (row: OutboxRecord, signal?: AbortSignal): Promise<NotifyResult> => {
    const gateway = gateways.get(row.channel);
    const delivery: Delivery =
      gateway === undefined
        ? {
            kind: 'refused',
            refusal: {
              code: 'unknown_channel',
              message: `The channel "${row.channel}" is no longer configured.`,
            },
          }
        : await sendOnce(gateway, row, signal);
    return settle(row, delivery);
  };

  const deliver = async (request: NotifyRequest, signal?: AbortSignal): Promise<NotifyResult> => {
    const found = resolve(request.channel);
    if ('refusal' in found) return { status: 'refused', refusal: found.refusal };
    const { gateway } = found;
    const payload: JsonObject = {
      text: request.text,
      ...(request.blocks ? { blocks: request.blocks as JsonValue[] } : {}),
      ...(request.attachment ? { attachment: { ...request.attachment } } : {}),
    };
    // Written claimed by this process: no deliverer elsewhere takes it while this first attempt runs.
    const row = await options.store.enqueueOutbox(
      {
        channel: gateway.channel,
        service: gateway.service,
        payload,
        idempotencyKey: randomUUID(),
        origin: request.origin,
      },
      { owner, leaseMs },
    );
    return attemptRow(row, signal);
  };

  let running: Promise<number> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let closed = false;
  const drain = async (): Promise<number> => {
    let sent = 0;
    for (;;) {
      // Only this process's channels: a process with another config on the same database leaves the rest.
      const rows = await options.store.claimOutbox({ owner, leaseMs, channels: names, limit: 10 });
      if (rows.length === 0) return sent;
      for (const row of rows) if ((await attemptRow(row)).status === 'sent') sent += 1;
    }
  };
  const deliverDue = (): Promise<number> => {
    running ??= drain().finally(() => {
      running = undefined;
    });
    return running;
  };
  const tick = () => {
    if (closed) return;
    deliverDue()
      .catch((error: unknown) =>
        logger.log({ level: 'warn', scope: 'notify', message: `outbox delivery failed: ${String(error)}` }),
      )
      .finally(() => {
        if (closed) return;
        timer = setTimeout(tick, options.pollMs ?? 5000);
        timer.unref();
      });
  };

  return {
    channels: () => names,
    limits(channel) {
      const found = resolve(channel);
      return 'gateway' in found ? found.gateway.limits : undefined;
    },
    async check(request, signal) {
      const found = resolve(request.channel);
      if ('refusal' in found) return found;
      return found.gateway.check(
        { text: request.text, blocks: request.blocks, attachment: request.attachment },
        signal,
      );
    },
    async send(request, signal) {
      const verdict = await this.check(request, signal);
      if ('refusal' in verdict) return { status: 'refused', refusal: verdict.refusal };
      return deliver(request, signal);
    },
    deliver,
    deliverDue,
    start() {
      if (started || closed || names.length === 0) return;
      started = true;
      tick();
    },
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
