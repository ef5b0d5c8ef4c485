import type { AutomationRecord, AutomationRunStatus } from '../../core/automation-records.js';
import { durationText, occurrenceText } from '../../core/zoned-time.js';

/** What the run's result is built from. */
export interface RunFacts {
  readonly automation: AutomationRecord;
  readonly scheduledFor: number;
  readonly lateMs: number;
  readonly late: boolean;
  readonly status: AutomationRunStatus;
  readonly message: string;
  /** Tools refused because they needed an approval nobody could give. */
  readonly unattendedRefusals: readonly string[];
  /** The budget line when it ran out, else undefined. */
  readonly budgetSpent?: string | undefined;
  readonly budgetUsed: string;
  readonly sessionId?: string | undefined;
  readonly timeZone: string;
}

const HEADINGS: Readonly<Record<AutomationRunStatus, string>> = {
  done: 'done',
  failed: 'failed',
  stopped: 'stopped',
  limit: 'stopped at a limit',
  budget: 'stopped: budget spent',
  skipped: 'not run',
};

/** The result handed to the notify channel and kept as the run's summary. */
export function resultText(f: RunFacts): string {
  const lines = [
    `Automation "${f.automation.name}" — ${occurrenceText(f.scheduledFor, f.timeZone)}: ${HEADINGS[f.status]}.`,
  ];
  if (f.late) {
    lines.push(
      `It ran ${durationText(f.lateMs)} late: toolseam was not running when it was due, so this occurrence ran once on return (any others missed meanwhile were skipped).`,
    );
  }
  if (f.budgetSpent !== undefined) {
    lines.push(`It stopped because this run had spent ${f.budgetSpent} (used ${f.budgetUsed}).`);
  }
  if (f.unattendedRefusals.length > 0) {
    const names = [...new Set(f.unattendedRefusals)].join(', ');
    lines.push(`Not run, since they need an approval and nobody was there to give it: ${names}.`);
  }
  lines.push('', f.message.trim() === '' ? '(no answer)' : f.message.trim());
  if (f.sessionId !== undefined) lines.push('', `Session: ${f.sessionId}`);
  return lines.join('\n');
}
