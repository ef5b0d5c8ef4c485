import { InputError } from '../../core/errors.js';
import type {
  NewQuarantine,
  NewToolSwitch,
  QuarantineFilter,
  ToolSwitchFilter,
} from '../../core/session-inputs.js';
import type { QuarantineRecord, ToolSwitchRecord } from '../../core/session-records.js';
import { StoreNotFoundError } from '../../core/store-errors.js';
import { checkedFilter, type QuarantineRow, toRecord as quarantineOf } from '../quarantine-table.js';
import { requireText, textOrNull } from '../rows.js';
import { toRecord as switchOf, type ToolSwitchRow } from '../tool-switches-table.js';
import type { PgAudit } from './pg-audit.js';
import type { PgContext } from './pg-context.js';
import { whereOf } from './pg-rows.js';

const TERMS = { provider: 'provider = @provider', model: 'model = @model', tool: 'tool_name = @tool' };

/** The quarantine of refused tools and the person's tool switches, on Postgres. */
export function pgToolBooks(ctx: PgContext, audit: PgAudit) {
  const read = async (filter: QuarantineFilter): Promise<QuarantineRecord[]> => {
    const { where, bound } = whereOf(TERMS, checkedFilter(filter));
    return (await ctx.all<QuarantineRow>(`SELECT * FROM tool_quarantine ${where} ORDER BY n`, bound)).map(
      quarantineOf,
    );
  };
  return {
    quarantineTools(input: NewQuarantine): Promise<QuarantineRecord[]> {
      const provider = requireText(input.provider, 'The provider of a quarantine');
      const model = requireText(input.model, 'The model of a quarantine');
      if (!Array.isArray(input.tools) || input.tools.length === 0)
        throw new InputError('A quarantine needs the names of the tools it leaves out (a non-empty list).');
      const tools = input.tools.map((t) => requireText(t, 'A quarantined tool name'));
      const said = textOrNull(input.said, "The provider's words") ?? '';
      const sessionId = textOrNull(input.sessionId, 'The session of a quarantine');
      const turnId = textOrNull(input.turnId, 'The turn of a quarantine');
      return ctx.write(async () => {
        if (
          sessionId !== null &&
          (await ctx.get('SELECT 1 FROM sessions WHERE id = ?', [sessionId])) === undefined
        )
          throw new StoreNotFoundError('session', sessionId);
        if (turnId !== null && (await ctx.get('SELECT 1 FROM turns WHERE id = ?', [turnId])) === undefined)
          throw new StoreNotFoundError('turn', turnId);
        const out: QuarantineRecord[] = [];
        for (const tool of tools) {
          // A tool refused again keeps when it was first left out, and takes the provider's newer words.
          const row = await ctx.get<QuarantineRow>(
            `INSERT INTO tool_quarantine (provider, model, tool_name, said, session_id, turn_id, created_at)
             VALUES (@provider, @model, @tool, @said, @sessionId, @turnId, @now)
             ON CONFLICT (provider, model, tool_name) DO UPDATE SET said = excluded.said,
               session_id = excluded.session_id, turn_id = excluded.turn_id
             RETURNING *`,
            { provider, model, tool, said, sessionId, turnId, now: ctx.now() },
          );
          out.push(quarantineOf(row as QuarantineRow));
        }
        return out;
      });
    },
    listQuarantined: (filter: QuarantineFilter = {}) => read(filter),
    liftQuarantine(filter: QuarantineFilter): Promise<QuarantineRecord[]> {
      return ctx.write(async () => {
        const lifted = await read(filter);
        for (const q of lifted) {
          await ctx.run('DELETE FROM tool_quarantine WHERE provider = ? AND model = ? AND tool_name = ?', [
            q.provider,
            q.model,
            q.tool,
          ]);
        }
        return lifted;
      });
    },

    setToolSwitch(input: NewToolSwitch): Promise<ToolSwitchRecord> {
      const tool = requireText(input?.tool, 'The tool a switch is for');
      if (typeof input.on !== 'boolean') {
        throw new InputError(`A tool switch is on (true) or off (false), got ${JSON.stringify(input.on)}.`);
      }
      const by = textOrNull(input.by, 'Who flipped a tool switch');
      return ctx.write(async () => {
        // Flips are taken one at a time (readers are not held up): a seq is committed before the next is
        // handed out, so a reader listing after the last seq it saw never skips one committed late.
        await ctx.run('LOCK TABLE tool_switches IN SHARE ROW EXCLUSIVE MODE');
        const row = await ctx.get<ToolSwitchRow>(
          `INSERT INTO tool_switches (tool_name, enabled, seq, changed_by, changed_at)
           VALUES (@tool, @enabled, (SELECT coalesce(max(seq), 0) + 1 FROM tool_switches), @by, @now)
           ON CONFLICT (tool_name) DO UPDATE SET enabled = excluded.enabled, seq = excluded.seq,
             changed_by = excluded.changed_by, changed_at = excluded.changed_at
           RETURNING *`,
          { tool, enabled: input.on ? 1 : 0, by, now: ctx.now() },
        );
        const record = switchOf(row as ToolSwitchRow);
        await audit.add({ kind: 'tool.switched', detail: { tool, on: input.on, by, seq: record.seq } });
        return record;
      });
    },
    async listToolSwitches(filter: ToolSwitchFilter = {}): Promise<ToolSwitchRecord[]> {
      const since = filter.afterSeq ?? 0;
      if (!Number.isSafeInteger(since) || since < 0) {
        throw new InputError(
          `The switch position to list after must be a whole number of at least 0 (a switch's seq), got ${String(since)}.`,
        );
      }
      return (
        await ctx.all<ToolSwitchRow>('SELECT * FROM tool_switches WHERE seq > ? ORDER BY seq', [since])
      ).map(switchOf);
    },
  };
}
