import { InputError } from '../core/errors.js';
import type { NewQuarantine, QuarantineFilter } from '../core/session-inputs.js';
import type { QuarantineRecord } from '../core/session-records.js';
import { StoreNotFoundError } from '../core/store-errors.js';
import { filteredList, iso, opt, requireText, textOrNull } from './rows.js';
import type { StoreContext } from './store-context.js';

export interface QuarantineRow {
  provider: string;
  model: string;
  tool_name: string;
  said: string;
  session_id: string | null;
  turn_id: string | null;
  created_at: number;
}

export function toRecord(row: QuarantineRow): QuarantineRecord {
  return {
    provider: row.provider,
    model: row.model,
    tool: row.tool_name,
    said: row.said,
    sessionId: opt(row.session_id),
    turnId: opt(row.turn_id),
    createdAt: iso(row.created_at),
  };
}

const TERMS = { provider: 'provider = @provider', model: 'model = @model', tool: 'tool_name = @tool' };

/** The quarantine table: tools left out for a provider and model until a person lifts it. */
export function quarantineTable(ctx: StoreContext) {
  const { db } = ctx;
  // A tool refused again keeps when it was first left out, and takes the provider's newer words.
  const upsert = db.prepare(
    `INSERT INTO tool_quarantine (provider, model, tool_name, said, session_id, turn_id, created_at)
     VALUES (@provider, @model, @tool, @said, @sessionId, @turnId, @now)
     ON CONFLICT (provider, model, tool_name) DO UPDATE SET said = excluded.said,
       session_id = excluded.session_id, turn_id = excluded.turn_id`,
  );
  const one = db.prepare('SELECT * FROM tool_quarantine WHERE provider = ? AND model = ? AND tool_name = ?');
  const list = filteredList(db, (where) => `SELECT * FROM tool_quarantine ${where} ORDER BY rowid`, TERMS);
  const remove = db.prepare(
    'DELETE FROM tool_quarantine WHERE provider = @provider AND model = @model AND tool_name = @tool',
  );
  const turnExists = db.prepare('SELECT 1 FROM turns WHERE id = ?').pluck();
  const sessionExists = db.prepare('SELECT 1 FROM sessions WHERE id = ?').pluck();
  const read = (filter: QuarantineFilter): QuarantineRecord[] =>
    (list(checkedFilter(filter)) as QuarantineRow[]).map(toRecord);

  return {
    add(input: NewQuarantine): QuarantineRecord[] {
      const provider = requireText(input.provider, 'The provider of a quarantine');
      const model = requireText(input.model, 'The model of a quarantine');
      if (!Array.isArray(input.tools) || input.tools.length === 0)
        throw new InputError('A quarantine needs the names of the tools it leaves out (a non-empty list).');
      const tools = input.tools.map((t) => requireText(t, 'A quarantined tool name'));
      const said = textOrNull(input.said, "The provider's words") ?? '';
      const sessionId = textOrNull(input.sessionId, 'The session of a quarantine');
      const turnId = textOrNull(input.turnId, 'The turn of a quarantine');
      return ctx.write(() => {
        if (sessionId !== null && sessionExists.get(sessionId) === undefined)
          throw new StoreNotFoundError('session', sessionId);
        if (turnId !== null && turnExists.get(turnId) === undefined)
          throw new StoreNotFoundError('turn', turnId);
        return tools.map((tool) => {
          upsert.run({ provider, model, tool, said, sessionId, turnId, now: ctx.now() });
          return toRecord(one.get(provider, model, tool) as QuarantineRow);
        });
      });
    },
    list: (filter: QuarantineFilter = {}): QuarantineRecord[] => read(filter),
    lift(filter: QuarantineFilter): QuarantineRecord[] {
      return ctx.write(() => {
        const lifted = read(filter);
        for (const q of lifted) remove.run({ provider: q.provider, model: q.model, tool: q.tool });
        return lifted;
      });
    },
  };
}

/** A filter's fields as SQL parameters; anything but a string or undefined is refused, naming it. */
export function checkedFilter(filter: QuarantineFilter) {
  return {
    provider: textOrNull(filter.provider, 'The provider to filter on'),
    model: textOrNull(filter.model, 'The model to filter on'),
    tool: textOrNull(filter.tool, 'The tool to filter on'),
  };
}

/** The quarantine table module's interface. */
export type QuarantineTable = ReturnType<typeof quarantineTable>;
