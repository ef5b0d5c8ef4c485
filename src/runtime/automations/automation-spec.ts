import type { AutomationPatch, NewAutomation } from '../../core/automation-records.js';
import { nearMiss } from '../../tools/arguments/near-miss.js';
import type { AutomationSettings } from './automation-settings.js';
import { readBudget } from './automation-settings.js';
import { AutomationSpecError } from './automation-spec-error.js';
import { cronOf, nextOccurrence } from './schedule.js';

/** The fields a spec may hold. */
export const SPEC_FIELDS = [
  'name',
  'schedule',
  'prompt',
  'agent',
  'tools',
  'notify',
  'budget',
  'enabled',
] as const;

const MAX_NAME = 80;
const MAX_PROMPT = 20_000;

/** What a spec is checked against besides its own shape. */
export interface SpecContext {
  readonly settings: AutomationSettings;
  /** The configured agents' names. */
  readonly agents: readonly string[];
  /** The configured notify channels, when known (then `notify` must name one). */
  readonly channels?: readonly string[];
  readonly now: number;
}

function objectOf(spec: unknown, what: string): Record<string, unknown> {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new AutomationSpecError(what, 'must be a JSON object.');
  }
  const record = spec as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if ((SPEC_FIELDS as readonly string[]).includes(key)) continue;
    const near = nearMiss(key, SPEC_FIELDS);
    throw new AutomationSpecError(
      key,
      `is not a field of an automation${near ? ` (did you mean ${near}?)` : ''}; the fields are ${SPEC_FIELDS.join(', ')}.`,
    );
  }
  return record;
}

function text(value: unknown, field: string, most: number): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new AutomationSpecError(field, 'must be non-empty text.');
  if (value.length > most)
    throw new AutomationSpecError(field, `is ${value.length} characters; the most is ${most}.`);
  return value.trim();
}

function agentOf(value: unknown, ctx: SpecContext): string {
  const agent = text(value, 'agent', MAX_NAME);
  if (!ctx.agents.includes(agent)) {
    const known =
      ctx.agents.length > 0
        ? `the configured agents are ${ctx.agents.join(', ')}`
        : 'the config defines none';
    throw new AutomationSpecError('agent', `there is no agent named "${agent}"; ${known}.`);
  }
  return agent;
}

function toolsOf(value: unknown): string[] {
  if (!Array.isArray(value) || value.some((t) => typeof t !== 'string' || t.trim() === '')) {
    throw new AutomationSpecError(
      'tools',
      'must be a list of tool names or globs, e.g. ["read_file", "mcp/github/*"] (leave it out for every tool the agent may use).',
    );
  }
  return value.map((t: string) => t.trim());
}

function notifyOf(value: unknown, ctx: SpecContext): string {
  const channel = text(value, 'notify', MAX_NAME);
  if (ctx.channels !== undefined && !ctx.channels.includes(channel)) {
    const known =
      ctx.channels.length > 0
        ? `the configured channels are ${ctx.channels.join(', ')}`
        : 'toolseam.json configures none under "notify"';
    throw new AutomationSpecError('notify', `there is no notify channel named "${channel}"; ${known}.`);
  }
  return channel;
}

/** A budget within the config's: an automation may spend less than the default, never more. */
function budgetOf(value: unknown, ctx: SpecContext) {
  const budget = readBudget(value, 'budget');
  const most = ctx.settings.budget;
  if (budget.modelRequests !== undefined && budget.modelRequests > most.modelRequests) {
    throw new AutomationSpecError(
      'budget.modelRequests',
      `${budget.modelRequests} is more than a run may make (${most.modelRequests}, automations.budget.modelRequests in toolseam.json).`,
    );
  }
  if (budget.tokens !== undefined && budget.tokens > most.tokens) {
    throw new AutomationSpecError(
      'budget.tokens',
      `${budget.tokens} is more than a run may spend (${most.tokens}, automations.budget.tokens in toolseam.json).`,
    );
  }
  return budget;
}

function enabledOf(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new AutomationSpecError('enabled', 'must be true or false.');
  return value;
}

/** The schedule read, and its next occurrence after `now` (null when it has none left). */
function scheduleOf(
  value: unknown,
  ctx: SpecContext,
): { schedule: string; cron: string; nextRunAt: number | null } {
  const schedule = text(value, 'schedule', 200);
  const cron = cronOf(schedule);
  return { schedule, cron, nextRunAt: nextOccurrence(cron, ctx.now, ctx.settings.timeZone) };
}

/** A new automation from its spec; throws AutomationSpecError naming the field at fault. */
export function readCreateSpec(spec: unknown, ctx: SpecContext): NewAutomation {
  const s = objectOf(spec, 'spec');
  for (const field of ['name', 'schedule', 'prompt'] as const) {
    if (s[field] === undefined) throw new AutomationSpecError(field, 'is required.');
  }
  const enabled = s.enabled === undefined ? true : enabledOf(s.enabled);
  const when = scheduleOf(s.schedule, ctx);
  return {
    name: text(s.name, 'name', MAX_NAME),
    ...when,
    nextRunAt: enabled ? when.nextRunAt : null,
    prompt: text(s.prompt, 'prompt', MAX_PROMPT),
    agent: s.agent === undefined ? undefined : agentOf(s.agent, ctx),
    tools: s.tools === undefined ? undefined : toolsOf(s.tools),
    notify: s.notify === undefined ? undefined : notifyOf(s.notify, ctx),
    budget: budgetOf(s.budget, ctx),
    enabled,
  };
}

/**
 * A change to an automation from a patch (`null` clears agent, tools or notify); a new schedule, or
 * turning it back on, works the next run out afresh, and turning it off clears it.
 */
export function readPatchSpec(
  patch: unknown,
  current: { readonly cron: string; readonly enabled: boolean },
  ctx: SpecContext,
): AutomationPatch {
  const p = objectOf(patch, 'patch');
  if (Object.keys(p).length === 0)
    throw new AutomationSpecError('patch', 'changes nothing; give at least one field.');
  const when = p.schedule === undefined ? undefined : scheduleOf(p.schedule, ctx);
  const enabled = p.enabled === undefined ? current.enabled : enabledOf(p.enabled);
  const rescheduled = when !== undefined || (enabled && !current.enabled) || (!enabled && current.enabled);
  const nextRunAt = enabled
    ? (when?.nextRunAt ?? nextOccurrence(current.cron, ctx.now, ctx.settings.timeZone))
    : null;
  const orNull = <T>(value: unknown, read: (v: unknown) => T): T | null | undefined =>
    value === undefined ? undefined : value === null ? null : read(value);
  const agent = orNull(p.agent, (v) => agentOf(v, ctx));
  const tools = orNull(p.tools, toolsOf);
  const notify = orNull(p.notify, (v) => notifyOf(v, ctx));
  return {
    ...(p.name === undefined ? {} : { name: text(p.name, 'name', MAX_NAME) }),
    ...(when === undefined ? {} : { schedule: when.schedule, cron: when.cron }),
    ...(p.prompt === undefined ? {} : { prompt: text(p.prompt, 'prompt', MAX_PROMPT) }),
    ...(agent === undefined ? {} : { agent }),
    ...(tools === undefined ? {} : { tools }),
    ...(notify === undefined ? {} : { notify }),
    ...(p.budget === undefined ? {} : { budget: budgetOf(p.budget, ctx) }),
    ...(p.enabled === undefined ? {} : { enabled }),
    ...(rescheduled ? { nextRunAt } : {}),
  };
}
