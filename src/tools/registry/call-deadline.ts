import type { JsonObject } from '../../core/json.js';
import type { ToolProvider, ToolResult } from '../../core/tool.js';
import { formatMs } from './with-deadline.js';

/** How long a call may run when neither the tool nor the config says (as for an MCP server's call). */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** What the runtime waits beyond a tool's own limit: the tool ends its work and says so in that time. */
export const OWN_LIMIT_MARGIN_MS = 10_000;

/** The deadline for a tool's calls that declare no limit of their own, by tool name (undefined: the default). */
export type CallTimeouts = (tool: string) => number | undefined;

/**
 * How long the registry waits for a call of `name`: the tool's own limit and a margin when it declares one
 * (`bash`'s `timeout_seconds`), none when it declares `null` (it waits for a person), else the configured
 * deadline for the tool, else 60 s. A provider whose answer is not a positive number of milliseconds or
 * null (or that throws when asked) is taken to declare nothing.
 */
export function callLimitMs(
  provider: ToolProvider,
  name: string,
  args: JsonObject,
  configured: CallTimeouts | undefined,
): number | undefined {
  let own: unknown;
  try {
    own = provider.timeLimitMs?.(name, args);
  } catch {
    own = undefined;
  }
  if (own === null) return undefined;
  if (typeof own === 'number' && Number.isFinite(own) && own > 0) return own + OWN_LIMIT_MARGIN_MS;
  return configured?.(name) ?? DEFAULT_CALL_TIMEOUT_MS;
}

/** A call's own signal: aborted when its turn stops, or when its deadline passes (and then `timedOut`). */
export class CallClock {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly outer: AbortSignal;
  private readonly onOuterAbort = (): void => this.controller.abort(this.outer.reason);
  private expired = false;

  constructor(outer: AbortSignal, limitMs: number | undefined) {
    this.outer = outer;
    this.signal = this.controller.signal;
    if (outer.aborted) this.controller.abort(outer.reason);
    else outer.addEventListener('abort', this.onOuterAbort, { once: true });
    // Not unref'd: a tool whose promise never settles may hold nothing else open, and the process must
    // live to answer the call as timed out rather than end with the turn unfinished.
    if (limitMs !== undefined) {
      this.timer = setTimeout(() => {
        this.expired = true;
        this.controller.abort(new Error(`the call did not finish within ${formatMs(limitMs)}`));
      }, limitMs);
    }
  }

  /** True once the deadline has passed (and the turn had not been stopped before it). */
  get timedOut(): boolean {
    return this.expired && !this.outer.aborted;
  }

  /** Stops the clock and lets go of the turn's signal. */
  release(): void {
    clearTimeout(this.timer);
    this.outer.removeEventListener('abort', this.onOuterAbort);
  }
}

/** The answer to a call that ran past its deadline: toolseam stopped waiting, the tool may still run. */
export function timedOutResult(name: string, limitMs: number): ToolResult {
  return {
    content:
      `Error: ${name} did not finish within ${formatMs(limitMs)}, its time limit, so toolseam stopped waiting for it. ` +
      'It may still be running, and whether it did its work is unknown: check before calling it again, or do the work another way.',
    isError: true,
    data: { code: 'tool_timeout', limitMs },
  };
}

/** How long a stopped turn still waits for a running tool to settle (a tool that heeds its signal does). */
export const STOP_GRACE_MS = 1000;

/** What {@link untilStopped} saw: the work's own outcome, or that it was still running after the grace. */
export type StopOutcome<T> =
  | { readonly kind: 'settled'; readonly value: T }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'abandoned' };

/**
 * Waits for `work`, or — once `signal` aborts — for at most `graceMs` more: a tool that heeds its
 * signal settles within the grace and is heard; one that ignores it no longer holds its turn. The
 * work itself is not stopped (nothing can stop a promise); its late outcome is dropped.
 */
export function untilStopped<T>(
  work: Promise<T>,
  signal: AbortSignal,
  graceMs: number,
): Promise<StopOutcome<T>> {
  const own = work.then(
    (value): StopOutcome<T> => ({ kind: 'settled', value }),
    (error: unknown): StopOutcome<T> => ({ kind: 'failed', error }),
  );
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      timer = setTimeout(() => resolve({ kind: 'abandoned' }), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    void own.then((outcome) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    });
  });
}

/** The answer to a call whose turn was stopped while it ran. */
export function stoppedWhileRunning(name: string): ToolResult {
  return {
    content: `Error: ${name} was stopped while it ran, because the turn was stopped. Whether it did anything is unknown; check before calling it again.`,
    isError: true,
  };
}
