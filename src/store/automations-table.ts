import type {
  AutomationClaim,
  AutomationPatch,
  AutomationRecord,
  AutomationRunEnd,
  AutomationRunStatus,
  NewAutomation,
} from '../core/automation-records.js';
import { InputError } from '../core/errors.js';
import { StoreNotFoundError } from '../core/store-errors.js';
import { fromJson, iso, opt, optIso, requireText } from './rows.js';
import type { StoreContext } from './store-context.js';

export interface AutomationRow {
  id: string;
  name: string;
  schedule: string;
  cron: string;
  prompt: string;
  agent: string | null;
  tools: string | null;
  notify: string | null;
  max_model_requests: number | null;
  max_tokens: number | null;
  enabled: number;
  next_run_at: number | null;
  last_scheduled_at: number | null;
  last_started_at: number | null;
  last_finished_at: number | null;
  last_status: string | null;
  last_summary: string | null;
  last_session_id: string | null;
  last_late_ms: number | null;
  created_at: number;
  updated_at: number;
}

export function toRecord(row: AutomationRow): AutomationRecord {
  const budget = {
    ...(row.max_model_requests === null ? {} : { modelRequests: row.max_model_requests }),
    ...(row.max_tokens === null ? {} : { tokens: row.max_tokens }),
  };
  const last =
    row.last_scheduled_at === null || row.last_started_at === null
      ? undefined
      : {
          scheduledFor: iso(row.last_scheduled_at),
          startedAt: iso(row.last_started_at),
          lateMs: row.last_late_ms ?? 0,
          ...(row.last_finished_at === null ? {} : { finishedAt: iso(row.last_finished_at) }),
          ...(row.last_status === null ? {} : { status: row.last_status as AutomationRunStatus }),
          ...(row.last_summary === null ? {} : { summary: row.last_summary }),
          ...(row.last_session_id === null ? {} : { sessionId: row.last_session_id }),
        };
  const next = optIso(row.next_run_at);
  return {
    id: row.id,
    name: row.name,
    schedule: row.schedule,
    cron: row.cron,
    prompt: row.prompt,
    ...(row.agent === null ? {} : { agent: row.agent }),
    ...(row.tools === null ? {} : { tools: fromJson<string[]>(row.tools) }),
    ...(row.notify === null ? {} : { notify: row.notify }),
    budget,
    enabled: row.enabled === 1,
    ...(next === undefined ? {} : { nextRunAt: next }),
    ...(last === undefined ? {} : { lastRun: last }),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** A budget bound as stored: a whole number of at least 1, or NULL for the config's default. */
export function bound(value: number | undefined, what: string): number | null {
  if (value === undefined) return null;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new InputError(`${what} must be a whole number of at least 1, got ${String(value)}.`);
  }
  return value;
}

export function nextMs(value: number | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isSafeInteger(value))
    throw new InputError(`An automation's next run must be epoch ms, got ${value}.`);
  return value;
}

/** The automations table: schedules, the claim that makes each occurrence run once, and last results. */
export function automationsTable(ctx: StoreContext) {
  const { db } = ctx;
  const byId = db.prepare('SELECT * FROM automations WHERE id = ?');
  const byName = db.prepare('SELECT * FROM automations WHERE name = ?');
  const all = db.prepare('SELECT * FROM automations ORDER BY name');
  const due = db.prepare(
    'SELECT * FROM automations WHERE enabled = 1 AND next_run_at <= ? ORDER BY next_run_at, name',
  );
  const insert = db.prepare(
    `INSERT INTO automations (id, name, schedule, cron, prompt, agent, tools, notify, max_model_requests,
       max_tokens, enabled, next_run_at, created_at, updated_at)
     VALUES (@id, @name, @schedule, @cron, @prompt, @agent, @tools, @notify, @maxModelRequests,
       @maxTokens, @enabled, @nextRunAt, @now, @now)`,
  );
  const remove = db.prepare('DELETE FROM automations WHERE id = ?');
  // The compare-and-set: only the process that still reads this occurrence as next moves it on.
  const claim = db.prepare(
    `UPDATE automations SET next_run_at = @nextRunAt, claimed_by = @owner, claimed_at = @at,
       last_scheduled_at = @scheduledFor, last_started_at = @at, last_late_ms = @at - @scheduledFor,
       last_finished_at = NULL, last_status = NULL, last_summary = NULL, last_session_id = NULL
     WHERE id = @id AND enabled = 1 AND next_run_at = @scheduledFor`,
  );
  const finish = db.prepare(
    `UPDATE automations SET last_finished_at = @now, last_status = @status, last_summary = @summary,
       last_session_id = @sessionId
     WHERE id = @id AND claimed_by = @owner AND last_scheduled_at = @scheduledFor`,
  );

  const find = (idOrName: string): AutomationRow | undefined =>
    (byId.get(idOrName) ?? byName.get(idOrName)) as AutomationRow | undefined;
  const taken = (name: string, id?: string): void => {
    const other = byName.get(name) as AutomationRow | undefined;
    if (other && other.id !== id) throw new InputError(`An automation named "${name}" already exists.`);
  };

  return {
    create(input: NewAutomation): AutomationRecord {
      const name = requireText(input?.name, "An automation's name");
      return ctx.write(() => {
        taken(name);
        const id = ctx.newId('au');
        insert.run({
          id,
          name,
          schedule: requireText(input.schedule, "An automation's schedule"),
          cron: requireText(input.cron, "An automation's cron expression"),
          prompt: requireText(input.prompt, "An automation's prompt"),
          agent: input.agent ?? null,
          tools: input.tools === undefined ? null : JSON.stringify(input.tools),
          notify: input.notify ?? null,
          maxModelRequests: bound(input.budget?.modelRequests, "An automation's budget.modelRequests"),
          maxTokens: bound(input.budget?.tokens, "An automation's budget.tokens"),
          enabled: input.enabled === false ? 0 : 1,
          nextRunAt: nextMs(input.nextRunAt),
          now: ctx.now(),
        });
        return toRecord(byId.get(id) as AutomationRow);
      });
    },
    get(idOrName: string): AutomationRecord | undefined {
      const row = find(idOrName);
      return row ? toRecord(row) : undefined;
    },
    list(): AutomationRecord[] {
      return (all.all() as AutomationRow[]).map(toRecord);
    },
    listDue(now: number): AutomationRecord[] {
      return (due.all(now) as AutomationRow[]).map(toRecord);
    },
    update(idOrName: string, patch: AutomationPatch): AutomationRecord {
      return ctx.write(() => {
        const row = find(idOrName);
        if (!row) throw new StoreNotFoundError('automation', idOrName);
        const sets: string[] = [];
        const values: Record<string, unknown> = { id: row.id, now: ctx.now() };
        const set = (column: string, value: unknown): void => {
          sets.push(`${column} = @${column}`);
          values[column] = value;
        };
        if (patch.name !== undefined) {
          taken(requireText(patch.name, "An automation's name"), row.id);
          set('name', patch.name);
        }
        if (patch.schedule !== undefined)
          set('schedule', requireText(patch.schedule, "An automation's schedule"));
        if (patch.cron !== undefined) set('cron', requireText(patch.cron, "An automation's cron expression"));
        if (patch.prompt !== undefined) set('prompt', requireText(patch.prompt, "An automation's prompt"));
        if (patch.agent !== undefined) set('agent', patch.agent);
        if (patch.tools !== undefined)
          set('tools', patch.tools === null ? null : JSON.stringify(patch.tools));
        if (patch.notify !== undefined) set('notify', patch.notify);
        if (patch.budget !== undefined) {
          set(
            'max_model_requests',
            bound(patch.budget.modelRequests, "An automation's budget.modelRequests"),
          );
          set('max_tokens', bound(patch.budget.tokens, "An automation's budget.tokens"));
        }
        if (patch.enabled !== undefined) set('enabled', patch.enabled ? 1 : 0);
        if (patch.nextRunAt !== undefined) set('next_run_at', nextMs(patch.nextRunAt));
        db.prepare(`UPDATE automations SET ${[...sets, 'updated_at = @now'].join(', ')} WHERE id = @id`).run(
          values,
        );
        return toRecord(byId.get(row.id) as AutomationRow);
      });
    },
    delete(idOrName: string): boolean {
      return ctx.write(() => {
        const row = find(idOrName);
        return row !== undefined && remove.run(row.id).changes === 1;
      });
    },
    claim(input: AutomationClaim): boolean {
      return ctx.write(
        () =>
          claim.run({
            id: input.id,
            scheduledFor: input.scheduledFor,
            nextRunAt: nextMs(input.nextRunAt),
            owner: input.owner,
            at: input.at,
          }).changes === 1,
      );
    },
    finish(claimed: AutomationClaim, end: AutomationRunEnd): boolean {
      return ctx.write(
        () =>
          finish.run({
            id: claimed.id,
            owner: claimed.owner,
            scheduledFor: claimed.scheduledFor,
            now: ctx.now(),
            status: end.status,
            summary: end.summary,
            sessionId: opt(end.sessionId) ?? null,
          }).changes === 1,
      );
    },
  };
}

/** The automations table module's interface. */
export type AutomationsTable = ReturnType<typeof automationsTable>;
