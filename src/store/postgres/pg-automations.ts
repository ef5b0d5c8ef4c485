import type {
  AutomationClaim,
  AutomationPatch,
  AutomationRecord,
  AutomationRunEnd,
  NewAutomation,
} from '../../core/automation-records.js';
import { InputError } from '../../core/errors.js';
import { StoreNotFoundError } from '../../core/store-errors.js';
import { type AutomationRow, bound, nextMs, toRecord } from '../automations-table.js';
import { opt, requireText } from '../rows.js';
import type { PgContext } from './pg-context.js';

/** Automations on Postgres; an occurrence is claimed by one compare-and-set UPDATE of `next_run_at`. */
export function pgAutomations(ctx: PgContext) {
  const find = async (idOrName: string): Promise<AutomationRow | undefined> =>
    (await ctx.get<AutomationRow>('SELECT * FROM automations WHERE id = ?', [idOrName])) ??
    (await ctx.get<AutomationRow>('SELECT * FROM automations WHERE name = ?', [idOrName]));
  const taken = async (name: string, id?: string): Promise<void> => {
    const other = await ctx.get<AutomationRow>('SELECT * FROM automations WHERE name = ?', [name]);
    if (other && other.id !== id) throw new InputError(`An automation named "${name}" already exists.`);
  };
  const byId = async (id: string) =>
    toRecord((await ctx.get<AutomationRow>('SELECT * FROM automations WHERE id = ?', [id])) as AutomationRow);

  return {
    createAutomation(input: NewAutomation): Promise<AutomationRecord> {
      const name = requireText(input?.name, "An automation's name");
      return ctx.write(async () => {
        await taken(name);
        const id = ctx.newId('au');
        await ctx.run(
          `INSERT INTO automations (id, name, schedule, cron, prompt, agent, tools, notify, max_model_requests,
             max_tokens, enabled, next_run_at, created_at, updated_at)
           VALUES (@id, @name, @schedule, @cron, @prompt, @agent, @tools, @notify, @maxModelRequests,
             @maxTokens, @enabled, @nextRunAt, @now, @now)`,
          {
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
          },
        );
        return byId(id);
      });
    },
    async getAutomation(idOrName: string): Promise<AutomationRecord | undefined> {
      const row = await find(idOrName);
      return row ? toRecord(row) : undefined;
    },
    async listAutomations(): Promise<AutomationRecord[]> {
      return (await ctx.all<AutomationRow>('SELECT * FROM automations ORDER BY name COLLATE "C"')).map(
        toRecord,
      );
    },
    async listDueAutomations(now: number): Promise<AutomationRecord[]> {
      const rows = await ctx.all<AutomationRow>(
        'SELECT * FROM automations WHERE enabled = 1 AND next_run_at <= ? ORDER BY next_run_at, name COLLATE "C"',
        [now],
      );
      return rows.map(toRecord);
    },
    updateAutomation(idOrName: string, patch: AutomationPatch): Promise<AutomationRecord> {
      return ctx.write(async () => {
        const row = await find(idOrName);
        if (!row) throw new StoreNotFoundError('automation', idOrName);
        const sets: string[] = [];
        const values: Record<string, unknown> = { id: row.id, now: ctx.now() };
        const set = (column: string, value: unknown): void => {
          sets.push(`${column} = @${column}`);
          values[column] = value;
        };
        if (patch.name !== undefined) {
          await taken(requireText(patch.name, "An automation's name"), row.id);
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
        await ctx.run(
          `UPDATE automations SET ${[...sets, 'updated_at = @now'].join(', ')} WHERE id = @id`,
          values,
        );
        return byId(row.id);
      });
    },
    deleteAutomation(idOrName: string): Promise<boolean> {
      return ctx.write(async () => {
        const row = await find(idOrName);
        return row !== undefined && (await ctx.run('DELETE FROM automations WHERE id = ?', [row.id])) === 1;
      });
    },
    async claimAutomationRun(input: AutomationClaim): Promise<boolean> {
      // The compare-and-set: a rival waits on the row lock, then finds next_run_at moved and changes nothing.
      const n = await ctx.run(
        `UPDATE automations SET next_run_at = @nextRunAt, claimed_by = @owner, claimed_at = @at,
           last_scheduled_at = @scheduledFor, last_started_at = @at, last_late_ms = @at::bigint - @scheduledFor::bigint,
           last_finished_at = NULL, last_status = NULL, last_summary = NULL, last_session_id = NULL
         WHERE id = @id AND enabled = 1 AND next_run_at = @scheduledFor`,
        {
          id: input.id,
          scheduledFor: input.scheduledFor,
          nextRunAt: nextMs(input.nextRunAt),
          owner: input.owner,
          at: input.at,
        },
      );
      return n === 1;
    },
    async finishAutomationRun(claimed: AutomationClaim, end: AutomationRunEnd): Promise<boolean> {
      const n = await ctx.run(
        `UPDATE automations SET last_finished_at = @now, last_status = @status, last_summary = @summary,
           last_session_id = @sessionId
         WHERE id = @id AND claimed_by = @owner AND last_scheduled_at = @scheduledFor`,
        {
          id: claimed.id,
          owner: claimed.owner,
          scheduledFor: claimed.scheduledFor,
          now: ctx.now(),
          status: end.status,
          summary: end.summary,
          sessionId: opt(end.sessionId) ?? null,
        },
      );
      return n === 1;
    },
  };
}
