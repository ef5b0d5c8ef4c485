import { InputError } from '../core/errors.js';
import type { NewToolSwitch, ToolSwitchFilter } from '../core/session-inputs.js';
import type { ToolSwitchRecord } from '../core/session-records.js';
import type { AuditTable } from './audit-table.js';
import { iso, opt, requireText, textOrNull } from './rows.js';
import type { StoreContext } from './store-context.js';

export interface ToolSwitchRow {
  tool_name: string;
  enabled: number;
  seq: number;
  changed_by: string | null;
  changed_at: number;
}

export function toRecord(row: ToolSwitchRow): ToolSwitchRecord {
  return {
    tool: row.tool_name,
    on: row.enabled === 1,
    seq: row.seq,
    changedAt: iso(row.changed_at),
    changedBy: opt(row.changed_by),
  };
}

/** The tool switches table: a person's on/off per tool, each flip numbered across the store. */
export function toolSwitchesTable(ctx: StoreContext, audit: AuditTable) {
  const { db } = ctx;
  // The next seq is read inside the write transaction, so two processes never hand out the same one.
  const upsert = db.prepare(
    `INSERT INTO tool_switches (tool_name, enabled, seq, changed_by, changed_at)
     VALUES (@tool, @enabled, (SELECT coalesce(max(seq), 0) + 1 FROM tool_switches), @by, @now)
     ON CONFLICT (tool_name) DO UPDATE SET enabled = excluded.enabled, seq = excluded.seq,
       changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
  );
  const one = db.prepare('SELECT * FROM tool_switches WHERE tool_name = ?');
  const after = db.prepare('SELECT * FROM tool_switches WHERE seq > ? ORDER BY seq');

  return {
    set(input: NewToolSwitch): ToolSwitchRecord {
      const tool = requireText(input?.tool, 'The tool a switch is for');
      if (typeof input.on !== 'boolean') {
        throw new InputError(`A tool switch is on (true) or off (false), got ${JSON.stringify(input.on)}.`);
      }
      const by = textOrNull(input.by, 'Who flipped a tool switch');
      return ctx.write(() => {
        upsert.run({ tool, enabled: input.on ? 1 : 0, by, now: ctx.now() });
        const record = toRecord(one.get(tool) as ToolSwitchRow);
        audit.add({ kind: 'tool.switched', detail: { tool, on: input.on, by, seq: record.seq } });
        return record;
      });
    },
    list(filter: ToolSwitchFilter = {}): ToolSwitchRecord[] {
      const since = filter.afterSeq ?? 0;
      if (!Number.isSafeInteger(since) || since < 0) {
        throw new InputError(
          `The switch position to list after must be a whole number of at least 0 (a switch's seq), got ${String(since)}.`,
        );
      }
      return (after.all(since) as ToolSwitchRow[]).map(toRecord);
    },
  };
}

/** The tool switches table module's interface. */
export type ToolSwitchesTable = ReturnType<typeof toolSwitchesTable>;
