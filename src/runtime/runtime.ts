import type { ApprovalDecision } from '../core/approval.js';
import { ToolseamError } from '../core/errors.js';
import type { RuntimeEvent } from '../core/events.js';
import { LocalSignals } from '../core/local-signals.js';
import { type Logger, silentLogger } from '../core/logger.js';
import type {
  ApprovalRecord,
  ListedSession,
  SessionFilter,
  SessionRecord,
  TurnRecord,
} from '../core/session-store.js';
import { type Signals, SLOW_POLL_MS } from '../core/signals.js';
import { schemaBudgetChars } from '../retrieval/index.js';
import { credentialVariables, redactSecrets } from '../tools/redact-secrets.js';
import type { ServedTools } from '../tools/registry/tool-registry.js';
import { BatchParked } from './batches/batch-parked.js';
import { ApprovalBroker, TurnParked } from './calls/approval-broker.js';
import { CallEvents, CallSession, type CallSessionOptions } from './calls/call-session.js';
import type { GatePolicy } from './calls/gates/gate-policy.js';
import type { RuntimeTool } from './calls/runtime-tool.js';
import { toolResultRead } from './context/tool-result-read.js';
import { EventChannel } from './event-channel.js';
import { answerLooseCalls, closeUnheldTurn, interruptAbandoned } from './resume/abandoned-turns.js';
import { countPastWork } from './resume/past-work.js';
import { resumeCalls } from './resume/resume-calls.js';
import { refuseLeafTurn, turnGates } from './resume/resume-gates.js';
import { takeOverTurn } from './resume/take-over-turn.js';
import { refuseOtherModel } from './resume/turn-model-guard.js';
import {
  OWNER_HEARTBEAT_MS,
  OWNER_SILENT_MS,
  ownerAlive,
  QUEUED_OWNER,
  releaseRuntimeOwner,
  runtimeOwner,
} from './resume/turn-owner.js';
import { waitForCallProviders } from './resume/wait-for-call-providers.js';
import {
  agentNamed,
  type ResolvedLimits,
  type RuntimeOptions,
  refuseUnknownGates,
  resolveLimits,
  type TaskMode,
} from './runtime-options.js';
import { deleteSession } from './sessions/delete-session.js';
import { SessionSurfaces } from './surface/session-surfaces.js';
import { toolNameEntries, UnmatchedEntries } from './surface/unmatched-entries.js';
import type { ToolRow, ToolsPageData } from './tool-switches/tool-rows.js';
import { ToolsBoard } from './tool-switches/tools-board.js';
import { SessionHistories } from './turn/session-histories.js';
import { type UnsavedResult, writeUnsaved } from './turn/store-retry.js';
import { storedEnd } from './turn/stored-end.js';
import type { TurnEnd } from './turn/turn-end.js';
import type { TurnEnvironment } from './turn/turn-environment.js';
import { runTurnLoop } from './turn/turn-loop.js';
import { freshTurnState, type TurnState } from './turn/turn-state.js';
import { markUnanswered } from './turn/unanswered-turn.js';

const DEFAULT_SYSTEM =
  'You are a helpful personal assistant. Use the tools you are offered when they help; when a tool call is ' +
  'refused, read the reason and follow it.';

/** Options of one message sent in a session. */
export interface SendOptions {
  readonly signal?: AbortSignal;
  /** Overrides the session's task mode for this turn. */
  readonly mode?: TaskMode;
}

/** Options of a session handle. */
export interface SessionOptions {
  readonly agent?: string;
  readonly mode?: TaskMode;
  readonly title?: string;
  /** Globs of the tools this session may use at all (subagent leaves). */
  readonly grants?: readonly string[];
  /** Set for a subagent leaf. */
  readonly leaf?: TurnEnvironment['leaf'];
  /** The user a session made here belongs to (`SessionStore` users); absent: the host's owner. */
  readonly userId?: string;
}

/** The session a handle was opened on: its record then, and whether opening it made it. */
interface OpenedSession {
  readonly record: SessionRecord;
  readonly created: boolean;
}

/** A conversation: send messages, stop the running turn. */
export interface Session {
  readonly id: string;
  /**
   * Starts one turn (stored once this resolves); the events end with `turn-end`. Leaving the loop over
   * them early stops the turn.
   */
  send(text: string, options?: SendOptions): Promise<AsyncIterable<RuntimeEvent>>;
  /** Stops the running turn, if any (pending approvals end as "the turn was stopped"). */
  stop(): void;
}

/** The runtime: sessions over one model, one tool registry and one store. */
export class Runtime {
  readonly options: RuntimeOptions;
  readonly logger: Logger;
  readonly limits: ResolvedLimits;
  readonly broker: ApprovalBroker;
  /** Wake-ups between the parts of the host and its processes (`RuntimeOptions.signals`). */
  readonly signals: Signals;
  readonly owner: string;
  private readonly surfaces: SessionSurfaces;
  /** The Tools page and the switches people flip, read from the store at each turn's start. */
  private readonly toolsBoard: ToolsBoard;
  private readonly running = new Map<string, AbortController>();
  /** Each session's conversation as last read, so a turn reads only the messages added since. */
  private readonly histories = new SessionHistories();
  private readonly runtimeTools = new Map<string, RuntimeTool>();
  /** Turns under way, so `close` can let them record how they ended. */
  private readonly turns = new Set<Promise<void>>();
  /**
   * Values hidden from every result: the stored secrets, and credentials in this process's environment
   * (a tool that reads one, or a file a command wrote it to, must not hand it to the model or the store).
   */
  readonly hidden: ReadonlyMap<string, string>;
  /** Outcomes of calls the store could not take in time (locked, full): written as soon as it answers again. */
  private readonly unsaved: UnsavedResult[] = [];
  /** Marks this runtime's unfinished turns alive, so other processes do not take them for orphans. */
  private readonly heartbeat: ReturnType<typeof setInterval>;
  /** A beat is waiting for the store: the next one is skipped rather than queued behind it. */
  private beating = false;
  private closed = false;

  constructor(options: RuntimeOptions) {
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.limits = resolveLimits(options.limits);
    this.signals = options.signals ?? new LocalSignals();
    this.broker = new ApprovalBroker(
      options.store,
      this.signals,
      options.approvals?.pollMs ?? (this.signals.reachesOtherProcesses ? SLOW_POLL_MS : 1_000),
      options.hosted?.parkApprovals === true,
    );
    this.owner = options.owner ?? runtimeOwner();
    const unmatched = new UnmatchedEntries(
      toolNameEntries(options.denyList ?? [], options.registry.startedOff),
    );
    this.surfaces = new SessionSurfaces({
      registry: options.registry,
      logger: this.logger,
      ...(options.k ? { k: options.k } : {}),
      ...(options.selector ? { selector: options.selector } : {}),
      denyList: options.denyList ?? [],
      onServed: (served) => this.warnUnmatched(unmatched, served),
    });
    this.toolsBoard = new ToolsBoard({
      registry: options.registry,
      store: options.store,
      denyList: options.denyList ?? [],
      logger: this.logger,
      model: options.model,
    });
    this.hidden = new Map([...credentialVariables(process.env), ...(options.secrets ?? [])]);
    // Never slower than a quarter of the silence that makes another host give the turn up.
    const every = Math.min(options.heartbeatMs ?? OWNER_HEARTBEAT_MS, OWNER_SILENT_MS / 4);
    this.heartbeat = setInterval(() => void this.beat(), every);
    this.heartbeat.unref();
    this.addRuntimeTool(toolResultRead());
  }

  /** Warns, once each, of deny-list and `disabledTools` entries that match none of the tools served. */
  private warnUnmatched(unmatched: UnmatchedEntries, served: ServedTools): void {
    const names = [...served.tools, ...served.switchedOff].map((t) => t.name);
    names.push(...this.runtimeTools.keys());
    const unlisted = served.failures.filter((f) => f.kind === 'list').map((f) => f.provider);
    for (const message of unmatched.check(names, unlisted)) {
      this.logger.log({ level: 'warn', scope: 'config', message });
    }
  }

  /** Never rejects: it runs on a timer. */
  private async beat(): Promise<void> {
    if (this.turns.size === 0 || this.beating) return;
    this.beating = true;
    try {
      await this.options.store.touchTurnOwner(this.owner);
    } catch (error) {
      // A busy or failing store is met by the turn's own writes; the next beat tries again.
      const message = `could not mark this process's turns alive in the store: ${String(error)}`;
      this.logger.log({ level: 'warn', scope: 'runtime', message, fields: { owner: this.owner } });
    } finally {
      this.beating = false;
    }
  }

  /** Adds a tool the runtime answers itself (e.g. `subagent_run`); offered from the next turn. */
  addRuntimeTool(tool: RuntimeTool): void {
    this.runtimeTools.set(tool.definition.name, tool);
  }

  /** A session handle; the session is created in the store when it does not exist yet. */
  async session(id?: string, options: SessionOptions = {}): Promise<Session> {
    this.refuseClosed();
    const store = this.options.store;
    let record = id === undefined ? undefined : await store.getSession(id);
    let created = false;
    if (!record) {
      try {
        record = await store.createSession({
          ...(id !== undefined ? { id } : {}),
          ...(options.agent !== undefined ? { agent: options.agent } : {}),
          ...(options.title !== undefined ? { title: options.title } : {}),
          ...(options.userId !== undefined ? { userId: options.userId } : {}),
          provider: this.options.model.provider,
          model: this.options.model.model,
        });
        created = true;
      } catch (error) {
        // Another handle for the same id (here, between the read and the write) made it first: use it.
        record = id === undefined ? undefined : await store.getSession(id).catch(() => undefined);
        if (!record) throw error;
      }
    }
    const sessionId = record.id;
    // The record just read or written serves the handle's first message (a host opens a handle per
    // message); a later message reads the session again, as another process may have changed it.
    let opened: OpenedSession | undefined = { record, created };
    return {
      id: sessionId,
      send: (text, sendOptions = {}) => {
        const known = opened;
        opened = undefined;
        return this.startTurn(sessionId, text, { ...options, ...sendOptions }, known);
      },
      stop: () => this.running.get(sessionId)?.abort(),
    };
  }

  /**
   * A session for calls that come from outside a turn (an MCP client's): one turn, open until the
   * session is closed, holds them, and each goes through the one call path (`calls/call-session.ts`).
   */
  async openCallSession(options: CallSessionOptions): Promise<CallSession> {
    this.refuseClosed();
    const store = this.options.store;
    const { provider, model } = this.options.model;
    const session = await store.createSession({ title: options.title, provider, model });
    const turn = await store.startTurn({
      sessionId: session.id,
      userText: options.opening,
      owner: this.owner,
      provider,
      model,
      baseURL: this.options.modelBaseURL,
      ranWith: this.options.ranWith,
    });
    const controller = new AbortController();
    const events = new CallEvents();
    // a caller from outside reaches no runtime tool, so a long result is cut, not kept for tool_result_read
    const outside = (env: TurnEnvironment): TurnEnvironment =>
      Object.freeze({ ...env, runtimeTools: new Map() });
    const { env, state } = await this.turnStart(session, turn, {}, controller.signal, events.emit);
    const renew = async () =>
      outside((await this.turnStart(session, turn, {}, controller.signal, events.emit)).env);
    const calls = new CallSession(outside(env), state, events, controller, options, renew);
    this.running.set(session.id, controller);
    // Counted among the turns, so the heartbeat marks it alive and `close` waits for it to end.
    const ended: Promise<void> = calls.ended.finally(() => {
      this.running.delete(session.id);
      this.turns.delete(ended);
    });
    this.turns.add(ended);
    return calls;
  }

  /** Answers an approval (bound to `digest` when given); the waiting turn, here or elsewhere, goes on. */
  async respond(
    approvalId: string,
    decision: ApprovalDecision,
    options: { digest?: string; answeredBy?: string } = {},
  ): Promise<ApprovalRecord> {
    this.refuseClosed();
    const record = await this.broker.respond(approvalId, decision, options);
    await this.options.hosted?.onAnswered?.(record);
    return record;
  }

  /** Approvals still waiting for an answer, oldest first. */
  async pendingApprovals(): Promise<ApprovalRecord[]> {
    this.refuseClosed();
    return this.options.store.listApprovals({ status: 'pending' });
  }

  /**
   * The Tools page: every tool with where it stands, its switch (`on`), the config key that fixes it off
   * (`fixed`) and its quarantine on this runtime's model; the providers' load failures; every quarantine.
   */
  async toolsPage(): Promise<ToolsPageData> {
    this.refuseClosed();
    const page = await this.toolsBoard.page();
    return { ...page, ranking: this.options.selector?.lastRanking?.() ?? 'words' };
  }

  /**
   * Switches a tool (by its real name) on or off for every process on this store, from each one's next
   * turn; switching on also lifts its quarantine on every model. Rejects with `UnknownToolError`
   * (`unknown_tool`, with the nearest name) or `FixedByConfigError` (`fixed_by_config`, naming the key).
   */
  async switchTool(name: string, on: boolean, options: { readonly by?: string } = {}): Promise<ToolRow> {
    this.refuseClosed();
    return this.toolsBoard.flip({ tool: name, on, by: options.by });
  }

  /** Reads the tool switches flipped since the last read (here or in another process) and applies them now. */
  async syncToolSwitches(): Promise<void> {
    this.refuseClosed();
    await this.toolsBoard.switches.sync();
  }

  /** Sessions, most recently used first, each saying whether a turn of it runs in this runtime now. */
  async listSessions(filter?: SessionFilter): Promise<(ListedSession & { readonly running: boolean })[]> {
    this.refuseClosed();
    const sessions = await this.options.store.listSessions(filter);
    return sessions.map((s) => ({ ...s, running: this.running.has(s.id) }));
  }

  /** True while a turn of the session runs (or is being set up) in this runtime. */
  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /**
   * Deletes a session with its child sessions and everything stored for them (pending approvals are
   * cancelled first). Rejects with `SessionTurnRunningError` (`turn_running`) while a turn of theirs
   * runs here or in a live process, and `UnknownSessionError` (`unknown_session`).
   */
  async deleteSession(sessionId: string): Promise<void> {
    this.refuseClosed();
    const runningHere = (id: string) => this.running.has(id);
    const deleted = await deleteSession(this.options.store, sessionId, { owner: this.owner, runningHere });
    for (const id of deleted) {
      this.histories.forget(id);
      this.surfaces.forget(id);
    }
  }

  /** Turns whose process died while they were unfinished: resume each with `resumeTurn`. */
  async orphanedTurns(): Promise<TurnRecord[]> {
    this.refuseClosed();
    return (await this.options.store.listTurns({ status: ['running', 'waiting_approval'] })).filter(
      (t) => t.owner !== this.owner && !this.ownerAlive(t),
    );
  }

  /**
   * Stops a turn no live process holds (parked for an approval, queued for a worker, or left by a dead
   * process): it ends as stopped, its waiting approvals cancelled and its loose calls answered. False
   * when a live process holds it (stop it there) or took it over meanwhile.
   */
  async stopUnheldTurn(turn: TurnRecord): Promise<boolean> {
    this.refuseClosed();
    if (turn.owner === this.owner || this.ownerAlive(turn)) return false;
    return closeUnheldTurn(
      this.options.store,
      turn,
      this.owner,
      { resultChars: this.limits.resultChars, hidden: this.hidden },
      'stopped',
    );
  }

  /** True while the process driving `turn` is alive (by this runtime's idea of a silent owner). */
  ownerAlive(turn: TurnRecord): boolean {
    return ownerAlive(turn, Date.now(), this.options.hosted?.ownerSilentMs);
  }

  /**
   * Stores a new turn of `sessionId` without running it (hosted mode: a worker takes it from the job
   * queue with `resumeTurn`). Rejects with `turn_running` while the session has an unfinished turn.
   */
  async queueTurn(
    sessionId: string,
    text: string,
    options: SessionOptions & SendOptions = {},
  ): Promise<TurnRecord> {
    this.refuseClosed();
    const store = this.options.store;
    const open = await store.listTurns({ sessionId, status: ['running', 'waiting_approval'] });
    if (this.running.has(sessionId) || open.some((t) => t.owner === QUEUED_OWNER || this.ownerAlive(t))) {
      throw new ToolseamError(
        'turn_running',
        `Session ${sessionId} is already running a turn; wait for it or stop it.`,
      );
    }
    const before = await store.getSession(sessionId);
    if (!before) throw new ToolseamError('unknown_session', `There is no session with id ${sessionId}.`);
    const effective = { ...(before.agent ? { agent: before.agent } : {}), ...options };
    refuseUnknownGates(this.options, effective);
    const { provider, model } = this.options.model;
    const turn = await store.startTurn({
      sessionId,
      userText: text,
      owner: QUEUED_OWNER,
      agent: effective.agent,
      mode: effective.mode,
      provider,
      model,
      baseURL: this.options.modelBaseURL,
      ranWith: this.options.ranWith,
    });
    await this.keepModelOf(before);
    return turn;
  }

  /**
   * Takes over a turn whose process died: answers what was decided while it was gone, waits again for
   * what was not, never runs a started call a second time, then lets the model continue.
   */
  async resumeTurn(
    turnId: string,
    options: SessionOptions & SendOptions = {},
  ): Promise<AsyncIterable<RuntimeEvent>> {
    this.refuseClosed();
    const store = this.options.store;
    const turn = await store.getTurn(turnId);
    if (!turn) throw new ToolseamError('unknown_turn', `There is no turn with id ${turnId}.`);
    if (turn.owner !== this.owner && this.ownerAlive(turn)) {
      throw new ToolseamError(
        'turn_busy',
        `Turn ${turnId} is still running in another process (${turn.owner}).`,
      );
    }
    // A second driver of a live turn would settle its calls twice (and tell the model a call that ran did not).
    if (this.running.has(turn.sessionId)) {
      throw new ToolseamError(
        'turn_busy',
        `Session ${turn.sessionId} is running a turn in this runtime; wait for it or stop it before resuming turn ${turnId}.`,
      );
    }
    return this.starting(turn.sessionId, async (controller) => {
      if (options.leaf === undefined) await refuseLeafTurn(store, turn);
      refuseOtherModel(turn, this.options);
      const gates = turnGates(turn);
      refuseUnknownGates(this.options, { ...options, ...gates });
      await takeOverTurn(store, turn, this.owner);
      // Before the turn's tools are served: a call of a server still starting must find its tool.
      await waitForCallProviders(store, this.options.registry, turn.id);
      const session = (await store.getSession(turn.sessionId)) as SessionRecord;
      // The turn goes on under the agent and mode it started with, whatever the caller asks now.
      return this.drive(session, turn, { ...options, ...gates }, true, controller);
    });
  }

  /**
   * Sets a turn of `sessionId` up and drives it. The session counts as running from the start (before
   * the first await, as when the store answered at once), so a second send or resume meanwhile is
   * refused; the set-up counts among `turns`, so `close` waits for it and the turn it starts (stopped
   * at once when `close` came first) before closing the store. A set-up that fails frees the session.
   */
  private async starting(
    sessionId: string,
    setUp: (controller: AbortController) => Promise<AsyncIterable<RuntimeEvent>>,
  ): Promise<AsyncIterable<RuntimeEvent>> {
    const controller = new AbortController();
    this.running.set(sessionId, controller);
    const work = setUp(controller);
    const settled = work.then(
      () => undefined,
      () => {
        this.running.delete(sessionId);
      },
    );
    this.turns.add(settled);
    void settled.finally(() => this.turns.delete(settled));
    return work;
  }

  /** Stops running turns (waiting up to 5 s for them to record how they ended), then closes the tools and the store. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const controller of this.running.values()) controller.abort();
    // A turn still being set up joins `turns` once it starts (already stopped): wait for it as well.
    const ending = (async () => {
      while (this.turns.size > 0) await Promise.allSettled(this.turns);
    })();
    await Promise.race([ending, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    await writeUnsaved(this.options.store, this.unsaved);
    if (this.unsaved.length > 0) {
      const lost = this.unsaved.map((u) => `${u.turnId}/${u.callId}`).join(', ');
      this.logger.log({
        level: 'warn',
        scope: 'runtime',
        message: `the session store still could not take the results of ${lost}; their calls will be answered as interrupted`,
      });
    }
    try {
      await this.options.registry.close();
      await this.options.store.close();
      await this.signals.close();
    } finally {
      // Only now: a turn still recording its end must not be taken over as if its runtime were gone.
      releaseRuntimeOwner(this.owner);
    }
  }

  /** A closed (or closing) runtime takes no more work: its store and tools are, or are about to be, closed. */
  private refuseClosed(): void {
    if (!this.closed) return;
    throw new ToolseamError(
      'runtime_closed',
      'This runtime has been closed, so it takes no more messages, answers or resumes; open a new runtime on the same database to go on.',
    );
  }

  private async startTurn(
    sessionId: string,
    text: string,
    options: SessionOptions & SendOptions,
    known?: OpenedSession,
  ): Promise<AsyncIterable<RuntimeEvent>> {
    this.refuseClosed();
    if (this.running.has(sessionId)) {
      throw new ToolseamError(
        'turn_running',
        `Session ${sessionId} is already running a turn; wait for it or stop it.`,
      );
    }
    return this.starting(sessionId, (controller) =>
      this.setUpTurn(sessionId, text, options, controller, known),
    );
  }

  private async setUpTurn(
    sessionId: string,
    text: string,
    options: SessionOptions & SendOptions,
    controller: AbortController,
    known?: OpenedSession,
  ): Promise<AsyncIterable<RuntimeEvent>> {
    const store = this.options.store;
    const before = known?.record ?? ((await store.getSession(sessionId)) as SessionRecord);
    const effective = { ...(before.agent ? { agent: before.agent } : {}), ...options };
    refuseUnknownGates(this.options, effective);
    // What an earlier turn could not store goes in first, so the record shows how its calls really ended.
    await writeUnsaved(store, this.unsaved);
    // A session this handle has just made has had no turn whose process could have died.
    if (known?.created !== true)
      await interruptAbandoned(store, sessionId, this.owner, {
        resultChars: this.limits.resultChars,
        hidden: this.hidden,
      });
    const turn = await store.startTurn({
      sessionId,
      userText: text,
      owner: this.owner,
      agent: effective.agent,
      mode: effective.mode,
      provider: this.options.model.provider,
      model: this.options.model.model,
      baseURL: this.options.modelBaseURL,
      ranWith: this.options.ranWith,
    });
    await this.keepModelOf(before);
    return this.drive(before, turn, effective, false, controller);
  }

  /**
   * Records this runtime's provider and model on a session that just started a turn under another (its
   * title needs no write: the store titled an untitled session from the turn's message).
   */
  private async keepModelOf(session: SessionRecord): Promise<void> {
    const { provider, model } = this.options.model;
    if (session.provider !== provider || session.model !== model)
      await this.options.store.updateSession(session.id, { provider, model });
  }

  private drive(
    session: SessionRecord,
    turn: TurnRecord,
    options: SessionOptions & SendOptions,
    resumed: boolean,
    controller: AbortController,
  ): AsyncIterable<RuntimeEvent> {
    // Nobody reads the turn any more (it could not answer an approval): stop it, as `stop()` would.
    const channel = new EventChannel<RuntimeEvent>(() => controller.abort());
    const stop = (): void => controller.abort();
    if (options.signal?.aborted) stop();
    else options.signal?.addEventListener('abort', stop, { once: true });
    const emit = (event: RuntimeEvent): void => channel.push(event);
    const done = (async () => {
      let end: TurnEnd;
      // The final answer was stored with the turn marked done (see `recordReply`).
      let endStored = false;
      let parked = false;
      let parkedOn: 'approval' | 'batch' = 'approval';
      try {
        emit({ type: 'turn-start', sessionId: session.id, turnId: turn.id });
        const { env, state } = await this.turnStart(session, turn, options, controller.signal, emit);
        if (resumed) {
          await countPastWork(env, state);
          await resumeCalls(env, state);
        } else state.callIds = new Set(); // a turn begun here has no calls yet
        end = await runTurnLoop(env, state);
        endStored = state.endStored === true;
      } catch (error) {
        parked = error instanceof TurnParked || error instanceof BatchParked;
        if (error instanceof BatchParked) parkedOn = 'batch';
        // The person reads the turn's ending, one line; the stack is for --verbose (and for a bug's report).
        if (!parked)
          this.logger.log({
            level: 'info',
            scope: 'runtime',
            message: redactSecrets(`turn ${turn.id} failed: ${(error as Error).stack ?? error}`, this.hidden),
          });
        end = {
          status: 'failed',
          message: `The turn failed inside toolseam: ${(error as Error).message ?? String(error)}`,
          errorCode: 'internal',
        };
      }
      if (parked) {
        await this.park(turn.id, parkedOn);
        if (parkedOn === 'batch') await this.sendParkedLeaves(turn.id);
        this.running.delete(session.id);
        options.signal?.removeEventListener('abort', stop);
        // No turn-end: the turn goes on, in whichever process takes its continuation.
        channel.close();
        return;
      }
      // A provider's error body may echo a key back: hidden as in results, before it is stored or shown.
      end = { ...end, message: redactSecrets(end.message, this.hidden) };
      try {
        await writeUnsaved(this.options.store, this.unsaved);
        // Calls the failure left unanswered are answered now: the model must find a result for each.
        if (end.errorCode === 'internal') {
          await answerLooseCalls(this.options.store, { turnId: turn.id }, 'the turn failed inside toolseam');
        }
        await markUnanswered(this.options.store, this.histories.of(session.id), turn.id, end);
        if (!endStored) await this.finish(turn.id, end);
      } catch (error) {
        // The store may be closing under us; the turn stays unfinished and resumable.
        this.logger.log({
          level: 'warn',
          scope: 'runtime',
          message: redactSecrets(`turn ${turn.id}: ${(error as Error).message}`, this.hidden),
        });
      }
      this.running.delete(session.id);
      options.signal?.removeEventListener('abort', stop);
      emit({ type: 'turn-end', turnId: turn.id, ...end });
      channel.close();
    })();
    this.turns.add(done);
    void done.finally(() => this.turns.delete(done));
    return channel;
  }

  /**
   * Lets a turn that waits for a person (or for its batches' leaves) go: it stays `waiting_approval`
   * (`running`) in the store, owned by the queue, so no heartbeat keeps it and any worker may take its
   * continuation.
   */
  private async park(turnId: string, on: 'approval' | 'batch'): Promise<void> {
    try {
      await writeUnsaved(this.options.store, this.unsaved);
      // A turn waiting for its batch's leaves is still under way, only held by no process.
      await this.options.store.setTurnStatus(turnId, on === 'batch' ? 'running' : 'waiting_approval', {
        from: ['running', 'waiting_approval'],
        owner: QUEUED_OWNER,
        fromOwner: this.owner,
      });
    } catch (error) {
      // Still ours in the store: it counts as orphaned once this process is gone, and is taken over then.
      const message = `turn ${turnId} could not be parked: ${(error as Error).message}`;
      this.logger.log({ level: 'warn', scope: 'runtime', message });
    }
  }

  /** Sends the leaves of a turn just parked on its batches (a lost send is made good by the sweep). */
  private async sendParkedLeaves(turnId: string): Promise<void> {
    try {
      await this.options.hosted?.onBatchParked?.(turnId);
    } catch (error) {
      const message = `the leaves of turn ${turnId} could not be sent yet: ${(error as Error).message}`;
      this.logger.log({ level: 'warn', scope: 'runtime', message });
    }
  }

  private async finish(turnId: string, end: TurnEnd): Promise<void> {
    const { state, error } = storedEnd(end);
    await this.options.store.setTurnStatus(turnId, state, error === undefined ? {} : { error });
  }

  /** The turn's environment, fixed from here on, and its state as it starts. */
  private async turnStart(
    session: SessionRecord,
    turn: TurnRecord,
    options: SessionOptions & SendOptions,
    signal: AbortSignal,
    emit: (event: RuntimeEvent) => void,
  ): Promise<{ env: TurnEnvironment; state: TurnState }> {
    const o = this.options;
    const agentName = options.agent;
    const agentConfig = agentNamed(o, agentName);
    const gates: GatePolicy = {
      agent: agentConfig && agentName !== undefined ? { name: agentName, config: agentConfig } : undefined,
      mode: options.mode ?? agentConfig?.mode ?? 'agent',
      denyList: o.denyList ?? [],
      grants: options.grants,
      hooks: o.hooks ?? [],
    };
    // Switches flipped since the last turn, here or in another process, apply from this turn on.
    await this.toolsBoard.switches.sync();
    // Tools this provider and model refused in an earlier turn are not offered until a person lifts it.
    const { provider, model } = o.model;
    const quarantined = new Map(
      (await o.store.listQuarantined({ provider, model })).map((q): [string, string] => [q.tool, q.said]),
    );
    const surface = await this.surfaces.forSession(session, gates.agent, emit, gates.grants, quarantined);
    const system = [o.system ?? DEFAULT_SYSTEM, agentConfig?.instructions].filter(Boolean).join('\n\n');
    const env: TurnEnvironment = {
      model: o.model,
      registry: o.registry,
      store: o.store,
      history: this.histories.of(session.id),
      logger: this.logger,
      broker: this.broker,
      limits: this.limits,
      approval: {
        policy: o.approvals?.policy ?? 'ask',
        timeoutMs: o.approvals?.timeoutMs ?? 300_000,
        unattended: o.approvals?.unattended ?? false,
      },
      gates,
      secrets: this.hidden,
      workspace: o.workspace ?? [process.cwd()],
      sessionId: session.id,
      turnId: turn.id,
      system,
      query: turn.userText,
      surface,
      runtimeTools: this.runtimeTools,
      signal,
      emit,
      budgetChars: schemaBudgetChars(o.contextWindow),
      ...(o.contextWindow === undefined ? {} : { contextWindow: o.contextWindow }),
      ...(o.waitingNoticeMs === undefined ? {} : { waitingNoticeMs: o.waitingNoticeMs }),
      ...(o.storeRetryMs === undefined ? {} : { storeRetryMs: o.storeRetryMs }),
      keepUnsaved: (result) => this.unsaved.push(result),
      nothingUnsaved: () => this.unsaved.length === 0,
      ...(options.leaf ? { leaf: options.leaf } : {}),
    };
    return { env: Object.freeze(env), state: freshTurnState(quarantined) };
  }
}
