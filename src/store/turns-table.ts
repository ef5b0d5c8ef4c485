import { InputError } from '../core/errors.js';
import type { ChatMessage } from '../core/model.js';
import type { NewTurn, TurnFilter, TurnMove } from '../core/session-inputs.js';
import type { StoredMessage, TurnConfig, TurnRecord, TurnState } from '../core/session-records.js';
import { FINAL_TURN_STATES } from '../core/session-records.js';
import { StoreNotFoundError } from '../core/store-errors.js';
import type { AppendOptions, MessagesTable } from './messages-table.js';
import {
  filteredList,
  inSet,
  iso,
  keptAsWritten,
  mustRead,
  opt,
  optIso,
  orNull,
  pickId,
  requireOneOf,
  rowReader,
  statusFilter,
  statusIn,
  statusSet,
} from './rows.js';
import type { SessionsTable } from './sessions-table.js';
import type { StoreContext } from './store-context.js';

export interface TurnRow {
  id: string;
  session_id: string;
  status: TurnState;
  user_text: string;
  owner: string | null;
  error: string | null;
  agent: string | null;
  mode: string | null;
  provider: string | null;
  model: string | null;
  base_url: string | null;
  config_file: string | null;
  config_sha256: string | null;
  workdir: string | null;
  owner_seen_at: number | null;
  started_at: number;
  ended_at: number | null;
}

const STATES: readonly TurnState[] = ['running', 'waiting_approval', ...FINAL_TURN_STATES];
const UNFINISHED = statusSet(['running', 'waiting_approval']);

export function toRecord(row: TurnRow): TurnRecord {
  return {
    id: row.id,
    sessionId: row.session_id,
    status: row.status,
    userText: row.user_text,
    startedAt: iso(row.started_at),
    endedAt: optIso(row.ended_at),
    owner: opt(row.owner),
    error: opt(row.error),
    agent: opt(row.agent),
    mode: opt(row.mode),
    provider: opt(row.provider),
    model: opt(row.model),
    baseURL: opt(row.base_url),
    ownerSeenAt: optIso(row.owner_seen_at),
    ranWith: ranWithOf(row),
  };
}

/** The configuration a turn ran with, as stored (none recorded before migration 15: NULL workdir). */
function ranWithOf(row: TurnRow): TurnConfig | undefined {
  if (row.workdir === null) return undefined;
  return {
    workdir: row.workdir,
    ...(row.config_file ? { file: row.config_file } : {}),
    ...(row.config_sha256 ? { sha256: row.config_sha256 } : {}),
  };
}

/** A turn's configuration checked before it is stored: strings, and a folder whenever any is given. */
function checkedRanWith(ranWith: TurnConfig | undefined): TurnConfig | undefined {
  if (ranWith === undefined) return undefined;
  const { workdir, file, sha256 } = ranWith as Partial<TurnConfig>;
  if (typeof workdir !== 'string' || workdir === '')
    throw new InputError("A turn's configuration needs the folder it runs in (workdir, a path).");
  for (const [what, value] of [
    ['config file', file],
    ['config hash', sha256],
  ] as const) {
    if (value !== undefined && typeof value !== 'string')
      throw new InputError(`A turn's ${what} must be a string, or be left out.`);
  }
  return { workdir, file, sha256 };
}

/** Checks a new turn's fields (text, the strings it runs with); returns its configuration, checked. */
export function checkedTurn(input: NewTurn): TurnConfig | undefined {
  if (typeof input.userText !== 'string') throw new InputError('A turn needs the user text (a string).');
  for (const [what, value] of [
    ['owner', input.owner],
    ['agent', input.agent],
    ['mode', input.mode],
    ['provider', input.provider],
    ['model', input.model],
    ['base URL', input.baseURL],
  ] as const) {
    if (value !== undefined && typeof value !== 'string')
      throw new InputError(`A turn's ${what} must be a string, or be left out.`);
  }
  return checkedRanWith(input.ranWith);
}

/** The turns table: one row per user message, with the state a restart needs. */
export function turnsTable(ctx: StoreContext, sessions: SessionsTable, messages: MessagesTable) {
  const { db } = ctx;
  const insert = db.prepare(
    `INSERT INTO turns (id, session_id, status, user_text, owner, agent, mode, provider, model, base_url,
       config_file, config_sha256, workdir, started_at, owner_seen_at)
     VALUES (@id, @sessionId, 'running', @userText, @owner, @agent, @mode, @provider, @model, @baseURL,
       @configFile, @configSha256, @workdir, @now, CASE WHEN @owner IS NULL THEN NULL ELSE @now END)`,
  );
  const byId = db.prepare('SELECT * FROM turns WHERE id = ?');
  const sessionOf = db.prepare('SELECT session_id FROM turns WHERE id = ?').pluck();
  // Oldest first by rowid (write order), as in every list here: the clock can step back between writes.
  const list = filteredList(db, (where) => `SELECT * FROM turns ${where} ORDER BY rowid`, {
    sessionId: 'session_id = @sessionId',
    statuses: statusIn,
  });
  const move = db.prepare(
    `UPDATE turns SET status = @status, owner = coalesce(@owner, owner), error = coalesce(@error, error),
       owner_seen_at = CASE WHEN @owner IS NULL THEN owner_seen_at ELSE @now END,
       ended_at = CASE WHEN @final THEN @now ELSE ended_at END
     WHERE id = @id AND ${inSet('@from')} AND (@anyOwner OR owner IS @fromOwner)`,
  );

  const touch = db.prepare(
    `UPDATE turns SET owner_seen_at = @now WHERE owner = @owner AND ${inSet('@unfinished')}`,
  );

  const get = rowReader(byId, toRecord);
  const mustGet = mustRead('turn', get);
  /** The session a turn belongs to (read alone, not the whole turn); StoreNotFoundError when there is no such turn. */
  const mustGetSessionId = mustRead('turn', (turnId) => sessionOf.get(turnId) as string | undefined);
  /** Appends a message to `sessionId`, the session of `turnId`, and marks the session used. */
  const appendTo = (
    sessionId: string,
    turnId: string,
    message: ChatMessage,
    tool?: string,
    options?: AppendOptions,
  ): StoredMessage =>
    ctx.write(() => {
      const stored = messages.append(sessionId, turnId, message, tool, options);
      sessions.touch(sessionId);
      return stored;
    });

  return {
    start(input: NewTurn) {
      return ctx.write((): TurnRecord => {
        sessions.mustExist(input.sessionId);
        const id = pickId(input.id, () => ctx.newId('t'), 'turn', get);
        const ranWith = checkedTurn(input);
        const now = ctx.now();
        const owner = orNull(input.owner);
        const row: TurnRow = {
          id,
          session_id: input.sessionId,
          status: 'running',
          user_text: input.userText,
          owner,
          error: null,
          agent: orNull(input.agent),
          mode: orNull(input.mode),
          provider: orNull(input.provider),
          model: orNull(input.model),
          base_url: orNull(input.baseURL),
          config_file: ranWith === undefined ? null : (ranWith.file ?? ''),
          config_sha256: orNull(ranWith?.sha256),
          workdir: orNull(ranWith?.workdir),
          owner_seen_at: owner === null ? null : now,
          started_at: now,
          ended_at: null,
        };
        insert.run({
          id,
          sessionId: row.session_id,
          userText: row.user_text,
          owner,
          agent: row.agent,
          mode: row.mode,
          provider: row.provider,
          model: row.model,
          baseURL: row.base_url,
          configFile: row.config_file,
          configSha256: row.config_sha256,
          workdir: row.workdir,
          now,
        });
        messages.append(input.sessionId, id, { role: 'user', content: input.userText });
        sessions.nameIfUntitled(input.sessionId, input.userText);
        sessions.touch(input.sessionId, 0);
        // Read back only when SQLite would not keep a text as given (half of a character in it).
        return keptAsWritten(row) ? toRecord(row) : mustGet(id);
      });
    },
    get,
    mustGet,
    mustGetSessionId,
    list(filter: TurnFilter = {}) {
      const statuses = statusFilter(filter.status, STATES, 'Turn state');
      return (list({ sessionId: filter.sessionId, statuses }) as TurnRow[]).map(toRecord);
    },
    setStatus(turnId: string, status: TurnState, options: TurnMove = {}): boolean {
      requireOneOf(status, STATES, 'A turn state');
      const from = options.from === undefined ? UNFINISHED : statusFilter(options.from, STATES, 'Turn state');
      const result = move.run({
        id: turnId,
        status,
        owner: orNull(options.owner),
        error: orNull(options.error),
        final: FINAL_TURN_STATES.includes(status) ? 1 : 0,
        now: ctx.now(),
        from,
        anyOwner: options.fromOwner === undefined ? 1 : 0,
        fromOwner: options.fromOwner ?? null,
      });
      if (result.changes === 0 && !get(turnId)) throw new StoreNotFoundError('turn', turnId);
      return result.changes === 1;
    },
    /** Marks `owner` alive now on every unfinished turn it runs; returns how many. */
    touchOwner(owner: string): number {
      return touch.run({ owner, now: ctx.now(), unfinished: UNFINISHED }).changes;
    },
    /** Appends a message to a turn's session and marks the session used. */
    append(turnId: string, message: ChatMessage, tool?: string, options?: AppendOptions): StoredMessage {
      return ctx.write(() => appendTo(mustGetSessionId(turnId), turnId, message, tool, options));
    },
    /** `append` for a caller whose write has just read the turn's session (not read a second time). */
    appendTo,
  };
}

/** The turns table module's interface. */
export type TurnsTable = ReturnType<typeof turnsTable>;
