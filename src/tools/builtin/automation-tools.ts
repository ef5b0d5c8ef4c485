import type { AutomationPatch, AutomationRecord, NewAutomation } from '../../core/automation-records.js';
import { ToolseamError } from '../../core/errors.js';
import { durationText, occurrenceText } from '../../core/zoned-time.js';
import { defineTool, type InProcessTool } from '../fields/define-tool.js';
import { field } from '../fields/field.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { type Checked, checkedWork, ready, refuse } from './checked-work.js';

/** What the automation tools work through (the runtime's `AutomationDesk`): specs checked, then stored. */
export interface AutomationDeskPort {
  /** The time zone schedules are read in. */
  readonly timeZone: string;
  /** Throws an error naming the field at fault. */
  prepareCreate(spec: unknown): Promise<NewAutomation>;
  create(input: NewAutomation): Promise<AutomationRecord>;
  list(): Promise<AutomationRecord[]>;
  get(idOrName: string): Promise<AutomationRecord | undefined>;
  /** Throws when there is no such automation, or an error naming the field at fault. */
  prepareUpdate(idOrName: string, patch: unknown): Promise<AutomationPatch>;
  update(idOrName: string, patch: AutomationPatch): Promise<AutomationRecord>;
  delete(idOrName: string): Promise<boolean>;
}

/** One automation as the tools and `toolseam automations` show it. */
export function automationLines(a: AutomationRecord, timeZone: string): string {
  const next =
    a.nextRunAt === undefined
      ? a.enabled
        ? 'none left'
        : 'off'
      : occurrenceText(Date.parse(a.nextRunAt), timeZone);
  const lines = [
    `- ${a.name} (${a.id}): ${a.schedule}${a.schedule === a.cron ? '' : ` [${a.cron}]`}; next run ${next}`,
  ];
  const extras = [
    a.agent ? `agent ${a.agent}` : '',
    a.tools ? `tools ${a.tools.join(', ')}` : '',
    a.notify ? `notifies ${a.notify}` : '',
    a.budget.modelRequests ? `at most ${a.budget.modelRequests} model requests` : '',
    a.budget.tokens ? `at most ${a.budget.tokens} tokens` : '',
  ].filter(Boolean);
  if (extras.length > 0) lines.push(`  ${extras.join('; ')}`);
  const last = a.lastRun;
  if (last === undefined) lines.push('  last run: never');
  else {
    const late = last.lateMs >= 60_000 ? `, ${durationText(last.lateMs)} late` : '';
    const when = occurrenceText(Date.parse(last.scheduledFor), timeZone);
    const first = last.summary
      ?.split('\n')
      .slice(1)
      .find((l) => l.trim() !== '' && !l.startsWith('Session:'));
    lines.push(
      `  last run: ${when}${late}: ${last.status ?? 'running (or its process stopped mid-run)'}` +
        (last.sessionId ? ` — session ${last.sessionId}` : ''),
    );
    if (first) lines.push(`    ${first.length > 160 ? `${first.slice(0, 157)}...` : first}`);
  }
  return lines.join('\n');
}

/** A desk call that throws (a bad spec, no such automation) as the refusal the model reads. */
async function checked<T>(work: () => Promise<T>): Promise<Checked<T>> {
  try {
    return ready(await work());
  } catch (error) {
    if (!(error instanceof ToolseamError)) throw error;
    return refuse(error.code, error.message, [
      'Fix what the message names and call again; automation_list shows what exists.',
    ]);
  }
}

const SPEC_HELP =
  'The automation as JSON text: {"name": "morning brief", "schedule": "every weekday at 08:00", ' +
  '"prompt": "what to do", "agent": "(optional) a configured agent", "tools": ["(optional) globs of the tools it may use"], ' +
  '"notify": "(optional) the channel its result goes to", "budget": {"modelRequests": 8, "tokens": 50000}, "enabled": true}. ' +
  'A schedule is a cron expression or a plain form ("every day at 7:30", "every monday at 9", "every 2 hours").';

const automationField = field.string({
  description: 'The automation, by name or id.',
  minLength: 1,
  maxLength: 200,
  trim: true,
});

/** `automation_create`, `automation_list`, `automation_update` and `automation_delete`. */
export function automationTools(desk: AutomationDeskPort): InProcessTool[] {
  const createFields = { spec: field.json({ shape: 'object', description: SPEC_HELP }) };
  const create = defineTool({
    name: 'automation_create',
    description:
      'Schedules a prompt to run on its own, unattended, at set times (cron or "every weekday at 08:00"), ' +
      'its result sent to a notify channel. Tools that need approval are refused in those runs.',
    risk: 'caution',
    group: BUILTIN_GROUPS.automations,
    fields: createFields,
    ...checkedWork(
      (args: { spec: unknown }) => checked(() => desk.prepareCreate(args.spec)),
      async (input) => `Created:\n${automationLines(await desk.create(input), desk.timeZone)}`,
    ),
  });

  const list = defineTool({
    name: 'automation_list',
    description: 'Lists the scheduled automations with their next run times and how their last runs went.',
    risk: 'safe',
    readOnly: true,
    group: BUILTIN_GROUPS.automations,
    async handler() {
      const all = await desk.list();
      if (all.length === 0) return 'No automations yet.';
      return `Times in ${desk.timeZone}.\n${all.map((a) => automationLines(a, desk.timeZone)).join('\n')}`;
    },
  });

  const updateFields = {
    automation: automationField,
    patch: field.json({
      shape: 'object',
      description: `The fields to change, as JSON text (null clears agent, tools or notify). ${SPEC_HELP}`,
    }),
  };
  const update = defineTool({
    name: 'automation_update',
    description:
      'Changes an automation: its schedule, prompt, agent, tools, notify channel, budget, or turns it on or off.',
    risk: 'caution',
    group: BUILTIN_GROUPS.automations,
    fields: updateFields,
    ...checkedWork(
      (args: { automation: string; patch: unknown }) =>
        checked(() => desk.prepareUpdate(args.automation, args.patch)),
      async (patch, args) =>
        `Updated:\n${automationLines(await desk.update(args.automation, patch), desk.timeZone)}`,
    ),
  });

  const removeFields = {
    automation: automationField,
    confirm: field.consent({ description: 'true, to delete it for good.' }),
  };
  const remove = defineTool({
    name: 'automation_delete',
    description: 'Deletes an automation; the sessions of its past runs stay.',
    risk: 'caution',
    group: BUILTIN_GROUPS.automations,
    fields: removeFields,
    ...checkedWork(
      async (args: { automation: string }) =>
        (await desk.get(args.automation))
          ? ready(args.automation)
          : refuse('no_automation', `There is no automation named or numbered "${args.automation}".`, [
              'automation_list shows what exists.',
            ]),
      async (name) =>
        (await desk.delete(name)) ? `Deleted the automation ${name}.` : `${name} was already gone.`,
    ),
  });

  return [create, list, update, remove] as InProcessTool[];
}
