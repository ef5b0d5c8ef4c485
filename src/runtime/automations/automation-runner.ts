import { hostname } from 'node:os';
import type {
  AutomationClaim,
  AutomationRecord,
  AutomationRunStatus,
} from '../../core/automation-records.js';
import type { RuntimeEvent } from '../../core/events.js';
import { occurrenceText } from '../../core/zoned-time.js';
import type { RuntimeTool } from '../calls/runtime-tool.js';
import { Runtime } from '../runtime.js';
import type { RuntimeOptions } from '../runtime-options.js';
import type { AutomationSettings } from './automation-settings.js';
import { borrowed } from './borrowed.js';
import { type Clock, systemClock } from './clock.js';
import { answerText, type ResultNotifier } from './result-notifier.js';
import { budgetedModel, RunBudget } from './run-budget.js';
import { resultText } from './run-text.js';
import { nextOccurrence } from './schedule.js';

/** What runs automations: the host's runtime options, lent to one unattended runtime per run. */
export interface AutomationRunnerOptions {
  /** The host runtime's options (model, registry, store, gates); each run gets its own unattended runtime over them. */
  readonly runtime: RuntimeOptions;
  readonly settings: AutomationSettings;
  /** Where results go; without one they are only kept with the automation and its session. */
  readonly notifier?: ResultNotifier | undefined;
  readonly clock?: Clock;
  /** Tools the runtime answers itself that each run offers too (`subagent_run`). */
  readonly runtimeTools?: (runtime: Runtime) => readonly RuntimeTool[];
  /** This process's name on its claims (default host:pid). */
  readonly owner?: string;
}

/** How one occurrence went. */
export interface AutomationRunOutcome {
  readonly automation: string;
  readonly scheduledFor: string;
  readonly status: AutomationRunStatus;
  readonly lateMs: number;
  /** The result as handed to the notify channel. */
  readonly text: string;
  readonly sessionId?: string;
  /** What the notifier answered (`sent`, `queued`, `refused` …), or why it could not be asked. */
  readonly notified: string;
}

/** Claims due occurrences and runs each as an unattended turn in a session of its own. */
export class AutomationRunner {
  readonly owner: string;
  readonly clock: Clock;

  constructor(readonly options: AutomationRunnerOptions) {
    this.owner = options.owner ?? `${hostname()}:${process.pid}`;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Runs `automation`'s due occurrence, if this process wins the claim on it (undefined when another
   * did, or it is not due). The next run is worked out from now, so however many occurrences were
   * missed while nothing ran, one run makes up for them.
   */
  async runIfClaimed(
    automation: AutomationRecord,
    signal?: AbortSignal,
  ): Promise<AutomationRunOutcome | undefined> {
    const store = this.options.runtime.store;
    if (automation.nextRunAt === undefined || !automation.enabled) return undefined;
    const now = this.clock.now();
    const scheduledFor = Date.parse(automation.nextRunAt);
    if (scheduledFor > now) return undefined;
    const claim: AutomationClaim = {
      id: automation.id,
      scheduledFor,
      nextRunAt: nextOccurrence(automation.cron, now, this.options.settings.timeZone),
      owner: this.owner,
      at: now,
    };
    if (!(await store.claimAutomationRun(claim))) return undefined;
    const ran = await this.run(automation, claim, signal);
    const notified = await this.notify(automation, ran.text);
    await store.finishAutomationRun(claim, {
      status: ran.status,
      summary: ran.text,
      sessionId: ran.sessionId,
    });
    return {
      automation: automation.name,
      scheduledFor: new Date(scheduledFor).toISOString(),
      status: ran.status,
      lateMs: claim.at - scheduledFor,
      text: ran.text,
      ...(ran.sessionId === undefined ? {} : { sessionId: ran.sessionId }),
      notified,
    };
  }

  private async run(
    automation: AutomationRecord,
    claim: AutomationClaim,
    outer: AbortSignal | undefined,
  ): Promise<{ status: AutomationRunStatus; text: string; sessionId?: string }> {
    const { settings } = this.options;
    // the host's owner name stays the host's: this runtime releases its own when it closes
    const { owner: _hostOwner, ...base } = this.options.runtime;
    // the config's budget is the most a run may spend, even for an automation made before it was lowered
    const budget = new RunBudget({
      modelRequests: Math.min(automation.budget.modelRequests ?? Infinity, settings.budget.modelRequests),
      tokens: Math.min(automation.budget.tokens ?? Infinity, settings.budget.tokens),
    });
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    outer?.addEventListener('abort', stop, { once: true });
    const runtime = new Runtime({
      ...base,
      model: budgetedModel(base.model, budget, stop),
      store: borrowed(base.store),
      registry: borrowed(base.registry),
      approvals: { ...base.approvals, unattended: true },
      // the host's ask_user may reach a person (the web page) and wait without a deadline: not here
      denyList: [
        ...(base.denyList ?? []),
        { tool: 'ask_user', reason: 'nobody is there to answer in an unattended run' },
      ],
    });
    for (const tool of this.options.runtimeTools?.(runtime) ?? []) runtime.addRuntimeTool(tool);
    const lateMs = claim.at - claim.scheduledFor;
    const when = occurrenceText(claim.scheduledFor, settings.timeZone);
    let status: AutomationRunStatus = 'failed';
    let message = '';
    let sessionId: string | undefined;
    const refused: string[] = [];
    try {
      const session = await runtime.session(undefined, {
        title: `${automation.name} — ${when}`,
        ...(automation.agent === undefined ? {} : { agent: automation.agent }),
        ...(automation.tools === undefined ? {} : { grants: automation.tools }),
      });
      sessionId = session.id;
      const events = await session.send(promptOf(automation, when), { signal: controller.signal });
      for await (const event of events) {
        if (isUnattendedRefusal(event)) refused.push(event.tool);
        if (event.type === 'turn-end') {
          status = event.status === 'rejected' ? 'failed' : event.status;
          message = event.message;
        }
      }
    } catch (error) {
      message = `The run could not start: ${(error as Error).message}`;
    } finally {
      outer?.removeEventListener('abort', stop);
      await runtime.close();
    }
    if (budget.spent) status = 'budget';
    const text = resultText({
      automation,
      scheduledFor: claim.scheduledFor,
      lateMs,
      late: lateMs > settings.lateAfterMs,
      status,
      message: budget.spent && message === 'The turn was stopped.' ? '' : message,
      unattendedRefusals: refused,
      budgetSpent: budget.spent ? budget.exhausted() : undefined,
      budgetUsed: budget.describe(),
      sessionId,
      timeZone: settings.timeZone,
    });
    return { status, text, ...(sessionId === undefined ? {} : { sessionId }) };
  }

  /** Hands the result over; a notifier that throws does not undo the run (the result stays in the store). */
  private async notify(automation: AutomationRecord, text: string): Promise<string> {
    const notifier = this.options.notifier;
    if (!notifier) return 'no notifier: the result is kept with the automation only';
    try {
      const answer = await notifier.send({
        channel: automation.notify,
        text,
        origin: `automation:${automation.name}`,
      });
      return answerText(answer);
    } catch (error) {
      return `failed: ${(error as Error).message}`;
    }
  }
}

function isUnattendedRefusal(event: RuntimeEvent): event is Extract<RuntimeEvent, { type: 'tool-call-end' }> {
  return event.type === 'tool-call-end' && event.refusedBy === 'unattended';
}

/** The prompt, with a first line telling the model nobody is at the keyboard. */
function promptOf(automation: AutomationRecord, when: string): string {
  return (
    `[Unattended run of the automation "${automation.name}", scheduled for ${when}. Nobody is at the ` +
    'keyboard: a tool that needs approval will be refused. Your final answer is sent to the owner.]\n\n' +
    automation.prompt
  );
}
