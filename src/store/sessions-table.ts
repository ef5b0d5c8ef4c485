import { RecentMap } from '../core/recent-map.js';
import type { NewSession, SessionFilter, SessionPatch } from '../core/session-inputs.js';
import type { ListedSession, SessionRecord } from '../core/session-records.js';
import { StoreNotFoundError } from '../core/store-errors.js';
import { headOf } from '../core/text-cut.js';
import {
  fromJson,
  iso,
  keptAsWritten,
  limitBy,
  opt,
  pickId,
  requireText,
  rowReader,
  sqlLimit,
  textOrNull,
} from './rows.js';
import type { StoreContext } from './store-context.js';

export interface SessionRow {
  id: string;
  title: string;
  agent: string | null;
  provider: string | null;
  model: string | null;
  /** Written by earlier releases (the registry stamp of a session's last turn); nothing reads it now. */
  surface_stamp: string | null;
  created_at: number;
  updated_at: number;
  tools: string;
  user_id: string | null;
}

/** A session's used tools, in first-use order, as a JSON list. */
const TOOLS = `(SELECT json_group_array(t.tool_name ORDER BY t.rowid) FROM session_tools t WHERE t.session_id = s.id) AS tools`;

const SELECT = `SELECT s.*, ${TOOLS} FROM sessions s`;

/** A session with its parent (the session whose batch ran it as a leaf) and how many child sessions its batches ran. */
const LISTED = `
  SELECT s.*, ${TOOLS},
    (SELECT b.parent_session_id FROM leaves l JOIN batches b ON b.id = l.batch_id
      WHERE l.child_session_id = s.id LIMIT 1) AS parent_session_id,
    (SELECT count(DISTINCT l.child_session_id) FROM batches b JOIN leaves l ON l.batch_id = b.id
      WHERE b.parent_session_id = s.id AND l.child_session_id IS NOT NULL) AS child_sessions
  FROM sessions s`;

/** Which sessions a list keeps: every one, those a person started, or one session's children. */
const WHICH = {
  all: '',
  topLevel: 'WHERE NOT EXISTS (SELECT 1 FROM leaves l WHERE l.child_session_id = s.id)',
  children: `WHERE EXISTS (SELECT 1 FROM leaves l JOIN batches b ON b.id = l.batch_id
    WHERE l.child_session_id = s.id AND b.parent_session_id = @parent)`,
} as const;

const TITLE_LENGTH = 60;

/**
 * How stale a session's `updated_at` may be before a message marks it used again. A turn's messages come
 * milliseconds apart: each rewriting the session's row and its place in the recency index would be page
 * writes that change no listing a person can see. A turn's start always marks it.
 */
export const TOUCH_GRAIN_MS = 1000;

/** How many sessions' last marks a connection remembers, the most recently marked (a host may serve thousands). */
const MARKS_KEPT = 1024;

/** A title from the first line of a user message, cut at a word near 60 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]?.trim() ?? '';
  if (line.length <= TITLE_LENGTH) return line;
  const cut = headOf(line, TITLE_LENGTH);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export function toRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    title: row.title,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    agent: opt(row.agent),
    provider: opt(row.provider),
    model: opt(row.model),
    toolsUsed: fromJson<string[]>(row.tools),
    userId: opt(row.user_id),
  };
}

/** A listed row as a record, with its parent session and child count. */
export function toListed(
  row: SessionRow & { parent_session_id: string | null; child_sessions: number },
): ListedSession {
  return { ...toRecord(row), parentSessionId: opt(row.parent_session_id), childSessions: row.child_sessions };
}

/** The sessions table and its sticky used-tools set. */
export function sessionsTable(ctx: StoreContext) {
  const { db } = ctx;
  const insert = db.prepare(
    `INSERT INTO sessions (id, title, agent, provider, model, user_id, created_at, updated_at)
     VALUES (@id, @title, @agent, @provider, @model, @userId, @now, @now)`,
  );
  const byId = db.prepare(`${SELECT} WHERE s.id = ?`);
  /** One statement per kind of list and per user filter (none, a user, the owner's), made on first use. */
  const lists = new Map<string, ReturnType<typeof db.prepare>>();
  const listOf = (which: keyof typeof WHICH, user: 'any' | 'user' | 'owner') => {
    const key = `${which}/${user}`;
    let statement = lists.get(key);
    if (!statement) {
      const mine = { any: '', user: 's.user_id = @user', owner: 's.user_id IS NULL' }[user];
      const terms = [WHICH[which].replace(/^WHERE /, ''), mine].filter((w) => w !== '');
      const where = terms.length === 0 ? '' : `WHERE ${terms.join(' AND ')}`;
      statement = db.prepare(
        `${LISTED} ${where} ORDER BY s.updated_at DESC, s.rowid DESC ${limitBy('@limit')}`,
      );
      lists.set(key, statement);
    }
    return statement;
  };
  const userExists = db.prepare('SELECT 1 FROM users WHERE id = ?').pluck();
  const patch = db.prepare(
    `UPDATE sessions SET title = coalesce(@title, title), agent = coalesce(@agent, agent),
       provider = coalesce(@provider, provider), model = coalesce(@model, model), updated_at = @now
     WHERE id = @id`,
  );
  // Only a later time is written: a row (and its index entry) left as it was costs no page write.
  const touch = db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ? AND updated_at < ?');
  /**
   * A time each session's `updated_at` is known to be at or after, from this connection's own writes: a
   * turn's messages would otherwise each run an update that finds the session marked a moment ago.
   */
  const markedAtLeast = new RecentMap<string, number>(MARKS_KEPT);
  // A failed write undoes its marks: what is known here may no longer be in the file.
  ctx.onUndo(() => markedAtLeast.clear());
  const nameIfUntitled = db.prepare(`UPDATE sessions SET title = ? WHERE id = ? AND title = ''`);
  const addTool = db.prepare(
    'INSERT INTO session_tools (session_id, tool_name, first_used_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const exists = db.prepare('SELECT 1 FROM sessions WHERE id = ?').pluck();

  const get = rowReader(byId, toRecord);
  const mustExist = (id: string): void => {
    if (exists.get(id) === undefined) throw new StoreNotFoundError('session', id);
  };

  return {
    create(input: NewSession = {}): SessionRecord {
      return ctx.write(() => {
        const id = pickId(
          input.id,
          () => ctx.newId('s'),
          'session',
          (i) => exists.get(i),
        );
        const now = ctx.now();
        const row: SessionRow = {
          id,
          title: textOrNull(input.title, "A session's title") ?? '',
          agent: textOrNull(input.agent, "A session's agent"),
          provider: textOrNull(input.provider, "A session's provider"),
          model: textOrNull(input.model, "A session's model"),
          surface_stamp: null,
          created_at: now,
          updated_at: now,
          tools: '[]',
          user_id: textOrNull(input.userId, "A session's user"),
        };
        if (row.user_id !== null && userExists.get(row.user_id) === undefined) {
          throw new StoreNotFoundError('user', row.user_id);
        }
        const { title, agent, provider, model, user_id: userId } = row;
        insert.run({ id, title, agent, provider, model, userId, now });
        markedAtLeast.set(id, now);
        // Read back only when SQLite would not keep a text as given (half of a character in it).
        return keptAsWritten(row) ? toRecord(row) : (get(id) as SessionRecord);
      });
    },
    get,
    mustExist,
    list(filter: SessionFilter = {}): ListedSession[] {
      const limit = sqlLimit(filter.limit);
      const parent = textOrNull(filter.parentSessionId, 'A parent session id');
      const user = filter.userId === undefined ? 'any' : filter.userId === null ? 'owner' : 'user';
      const which = parent !== null ? 'children' : filter.topLevel ? 'topLevel' : 'all';
      const rows = listOf(which, user).all({
        limit,
        ...(parent !== null ? { parent } : {}),
        ...(user === 'user' ? { user: requireText(filter.userId, 'A user id') } : {}),
      });
      return (rows as Parameters<typeof toListed>[0][]).map(toListed);
    },
    update(id: string, changes: SessionPatch): SessionRecord {
      const values = {
        id,
        title: textOrNull(changes.title, "A session's title"),
        agent: textOrNull(changes.agent, "A session's agent"),
        provider: textOrNull(changes.provider, "A session's provider"),
        model: textOrNull(changes.model, "A session's model"),
      };
      // The change and the read after it in one transaction (one lock taken, not two).
      return ctx.write(() => {
        const done = patch.run({ ...values, now: ctx.now() });
        if (done.changes === 0) throw new StoreNotFoundError('session', id);
        return get(id) as SessionRecord;
      });
    },
    addToolsUsed(sessionId: string, tools: readonly string[]): void {
      ctx.write(() => {
        mustExist(sessionId);
        const now = ctx.now();
        for (const name of tools) addTool.run(sessionId, requireText(name, 'A tool name'), now);
      });
    },
    /** Adds one used tool to a session the caller's write has just found (through a row of its own). */
    addToolUsed(sessionId: string, tool: string): void {
      addTool.run(sessionId, requireText(tool, 'A tool name'), ctx.now());
    },
    /** Marks the session as just used, unless it was marked less than `grainMs` ago. */
    touch(id: string, grainMs = TOUCH_GRAIN_MS): void {
      const now = ctx.now();
      const since = now - grainMs;
      // The row's time is known here to be at least `known` (its time only moves forward, and a failed
      // write forgets what is known): at or after `since`, the update would change nothing, so it is not run.
      const known = markedAtLeast.get(id);
      // A clock that stepped back below what is known may have written an earlier time since: not skipped.
      if (known !== undefined && known >= since && known <= now) return;
      // Moved: it holds `now`. Not moved: it was already at `since` or later (another process marked it),
      // or there is no such session.
      markedAtLeast.set(id, touch.run(now, id, since).changes === 1 ? now : since);
    },
    /** Names an untitled session after a user message. */
    nameIfUntitled(id: string, text: string): void {
      const title = titleFrom(text);
      if (title) nameIfUntitled.run(title, id);
    },
  };
}

/** The sessions table module's interface. */
export type SessionsTable = ReturnType<typeof sessionsTable>;
