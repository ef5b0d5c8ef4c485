import { randomUUID } from 'node:crypto';
import type { ApprovalDecision, ApprovalRequest } from '../../core/approval.js';
import { ToolseamError } from '../../core/errors.js';
import type { RuntimeEvent } from '../../core/events.js';
import type { JsonObject } from '../../core/json.js';
import { jsonTextOf } from '../../core/json-text-of.js';
import { isPastDeadline } from '../../core/session-records.js';
import type { ToolDefinition, ToolResult } from '../../core/tool.js';
import type { OfferedTool } from '../../seam/index.js';
import type { TurnEnvironment } from '../turn/turn-environment.js';
import type { TurnState } from '../turn/turn-state.js';
import type { ApprovalOutcome } from './approval-broker.js';
import { afterApproval, carryOut } from './call-path.js';
import type { CallTarget } from './call-target.js';
import { askLater, planOutsideCall } from './outside-call.js';
import type { PlannedCall } from './planned-call.js';
import { readCall } from './planned-call.js';
import { recordReadCalls } from './record-reply.js';
import { refusalResult } from './refusals.js';
import { settleCall } from './settle-call.js';
import { unknownTarget } from './targets/served-targets.js';
import { targetNamed } from './targets/target-sources.js';

/** What a session of calls from outside a turn is opened with. */
export interface CallSessionOptions {
  /** The session's title, as `toolseam sessions` lists it. */
  readonly title: string;
  /** The text its one turn is stored with (who is calling). */
  readonly opening: string;
  /** True for a tool this session's caller may list and call; any other name is refused as unknown. */
  readonly serves: (tool: ToolDefinition) => boolean;
}

/**
 * Puts a call's question to a person through the caller (an MCP client's elicitation); resolves with
 * their answer. `signal` aborts when the question was answered elsewhere (`toolseam approve`) or closed.
 */
export type PersonAsker = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>;

/** How a call from outside a turn was answered. */
export type OutsideAnswer =
  | { readonly kind: 'result'; readonly result: ToolResult }
  /** Its question is stored and waits: the same call again, once answered, runs (or is refused) once. */
  | { readonly kind: 'asked'; readonly request: ApprovalRequest }
  /** The same call's question, asked before, still waits for its answer. */
  | { readonly kind: 'waiting'; readonly request: ApprovalRequest };

/** A call put to a person whose caller could not wait: carried out when the same call comes again. */
interface WaitingCall {
  readonly call: PlannedCall;
  readonly request: ApprovalRequest;
}

/** Passes a session's runtime events on, once the session exists to hear them. */
export class CallEvents {
  listener: ((event: RuntimeEvent) => void) | undefined;
  readonly emit = (event: RuntimeEvent): void => this.listener?.(event);
}

/**
 * One caller's calls from outside a turn (an MCP client connection): one session with one turn, open
 * while the caller is, each call read, gated, decided, asked, run, bounded, redacted and stored by the
 * one call path. A question the caller cannot put to a person stays stored, bound to the call's digest:
 * the caller's next identical call carries the first one out once it was answered.
 */
export class CallSession {
  private readonly waiting = new Map<string, WaitingCall>();
  private readonly askers = new Map<string, PersonAsker>();
  private readonly asking = new Map<string, AbortController>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;
  private renewing: Promise<void> | undefined;
  private resolveEnded: () => void = () => undefined;
  /** Settles once the session is closed and its turn ended. */
  readonly ended = new Promise<void>((resolve) => {
    this.resolveEnded = resolve;
  });

  constructor(
    private env: TurnEnvironment,
    private readonly state: TurnState,
    events: CallEvents,
    private readonly controller: AbortController,
    private readonly options: CallSessionOptions,
    /** The session's environment made again, on the tools the registry serves now. */
    private readonly renew: () => Promise<TurnEnvironment>,
  ) {
    events.listener = (event) => this.hear(event);
    // The runtime closing stops the session's turn: what waits is answered, the turn ended.
    env.signal.addEventListener('abort', () => void this.close(), { once: true });
  }

  get sessionId(): string {
    return this.env.sessionId;
  }

  get turnId(): string {
    return this.env.turnId;
  }

  /** The registry's surface stamp now: it moves when the tools it serves change. */
  get toolsStamp(): string {
    return this.env.registry.surfaceStamp();
  }

  /** The tools this caller may use, as the seam offers them (wire name, offered schema, description). */
  async tools(): Promise<OfferedTool[]> {
    const env = await this.current();
    return env.surface.offered.filter((t) => this.options.serves(t.definition));
  }

  /**
   * Takes one call (by real or wire name; arguments as an object or JSON text) through the call path.
   * With `asker`, a question waits for the person's answer through it (or from `toolseam approve`);
   * without, it is stored and the answer says so.
   */
  async call(name: string, args: JsonObject | string, asker?: PersonAsker): Promise<OutsideAnswer> {
    if (this.closing || this.env.signal.aborted) {
      throw new ToolseamError('session_closed', `The call session ${this.sessionId} is closed.`);
    }
    const work = this.take(name, args, asker);
    this.inFlight.add(work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  /** Ends the session: running calls are stopped, questions nobody answered are closed, the turn ends. */
  close(): Promise<void> {
    this.closing ??= this.shut().finally(() => this.resolveEnded());
    return this.closing;
  }

  /**
   * The session's environment, made again first when the registry's tools changed since (an app or a
   * server added, removed, switched): unlike a turn, a connection lasts as long as its client.
   */
  private async current(): Promise<TurnEnvironment> {
    if (this.env.surface.stamp !== this.env.registry.surfaceStamp()) {
      this.renewing ??= this.renew()
        .then((env) => {
          this.env = env;
        })
        .finally(() => {
          this.renewing = undefined;
        });
      await this.renewing;
    }
    return this.env;
  }

  private async take(name: string, args: JsonObject | string, asker?: PersonAsker): Promise<OutsideAnswer> {
    const env = await this.current();
    const { state } = this;
    const target = this.targetOf(env, name);
    const sent = {
      id: `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
      name,
      arguments: textOf(args),
    };
    const read = readCall(env, sent, false, target);
    const earlier = read.unreadable ? undefined : this.waiting.get(read.digest);
    if (earlier) {
      const answer = await this.carryOutEarlier(earlier);
      if (answer) return answer;
    }
    // Read once, recorded as read: its id is new (no look at the turn's other calls, which grow all session).
    const [call] = (await recordReadCalls(env, '', [read])) as [PlannedCall];
    const plan = await planOutsideCall(env, state, call);
    if (plan.kind !== 'ask') return resultOf(await carryOut(env, state, call, plan));
    if (asker) {
      this.askers.set(call.id, asker);
      try {
        return resultOf(await carryOut(env, state, call, plan));
      } finally {
        this.askers.delete(call.id);
      }
    }
    const later = await askLater(env, state, call);
    if (later.kind === 'answered') return resultOf(later.result);
    this.waiting.set(call.digest, { call, request: later.request });
    return { kind: 'asked', request: later.request };
  }

  /**
   * The same call as one whose question was stored: still waiting, or carried out now as answered (run
   * once, or refused in the person's words). Undefined when its question ended unanswered (expired,
   * closed): that call is answered so, and this one is asked about afresh.
   */
  private async carryOutEarlier(earlier: WaitingCall): Promise<OutsideAnswer | undefined> {
    const { env, state } = this;
    const id = earlier.request.id;
    let record = await env.store.getApproval(id);
    if (record?.status === 'pending') {
      if (!isPastDeadline(record)) return { kind: 'waiting', request: earlier.request };
      // Past its deadline with nobody waiting on it: closed here (an answer that just landed wins).
      await env.store.closeApproval(id, 'expired', 'no one answered in time');
      record = await env.store.getApproval(id);
    }
    // Taken first, before anything waits: two identical calls at once carry the earlier out only once.
    if (this.waiting.get(earlier.call.digest) !== earlier) return undefined;
    this.waiting.delete(earlier.call.digest);
    const outcome: ApprovalOutcome =
      record?.status === 'approved'
        ? { kind: 'approved', record }
        : record?.status === 'denied'
          ? { kind: 'denied', record }
          : { kind: record?.status === 'expired' ? 'expired' : 'cancelled' };
    const result = await afterApproval(env, state, earlier.call, id, outcome);
    return outcome.kind === 'approved' || outcome.kind === 'denied' ? resultOf(result) : undefined;
  }

  /** The target of a name the caller sent: a served tool's (by real or wire name), else the unknown target. */
  private targetOf(env: TurnEnvironment, sent: string): CallTarget {
    const surface = env.surface;
    const real = surface.byName.has(sent) ? sent : surface.wireToReal.get(sent);
    const offered = real === undefined ? undefined : surface.byName.get(real);
    if (real !== undefined && offered && this.options.serves(offered.definition)) {
      return targetNamed(env, real);
    }
    // A tool the deny-list refuses is refused as denied, by the deny-list gate (it reads the real name).
    const denied = surface.denied.has(sent) ? sent : surface.deniedWire.get(sent);
    return unknownTarget(denied ?? sent);
  }

  /** Hears the session's events: a question to put through the caller, or one answered elsewhere. */
  private hear(event: RuntimeEvent): void {
    if (event.type === 'approval-request') {
      const asker = this.askers.get(event.request.callId);
      if (asker) this.putThrough(asker, event.request);
    } else if (event.type === 'approval-resolved') {
      this.asking.get(event.approvalId)?.abort();
      this.asking.delete(event.approvalId);
    }
  }

  private putThrough(asker: PersonAsker, request: ApprovalRequest): void {
    const controller = new AbortController();
    this.asking.set(request.id, controller);
    void asker(request, controller.signal)
      .then((decision) =>
        this.env.broker.respond(request.id, decision, {
          digest: request.digest,
          answeredBy: 'mcp-client',
        }),
      )
      .catch((error: unknown) => {
        // Answered elsewhere, or the caller could not ask: the question stays open to `toolseam approve`
        // until its timeout.
        if (controller.signal.aborted) return;
        this.env.logger.log({
          level: 'warn',
          scope: 'runtime',
          message: `approval ${request.id} could not be put through the caller: ${(error as Error).message}`,
        });
      });
  }

  private async shut(): Promise<void> {
    const { env } = this;
    this.controller.abort();
    await Promise.allSettled([...this.inFlight]);
    for (const { call } of this.waiting.values()) {
      const refusal = refusalResult(call.tool, { by: 'stopped', reason: '' });
      await settleCall(env, call, refusal, 'refused').catch(() => undefined);
    }
    this.waiting.clear();
    // A final state closes the questions still open with it.
    await env.store
      .setTurnStatus(env.turnId, 'done', { from: ['running', 'waiting_approval'] })
      .catch(() => undefined);
  }
}

function textOf(args: JsonObject | string): string {
  return typeof args === 'string' ? args : jsonTextOf(args);
}

function resultOf(result: ToolResult): OutsideAnswer {
  return { kind: 'result', result };
}
