import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import { durationText } from '../core/zoned-time.js';
import type { Command } from './command.js';
import { configFromFlags } from './config-flags.js';
import { RUNTIME_FLAGS, runtimeFromFlags, VERBOSE_HELP } from './runtime-flags.js';
import { visible } from './visible-text.js';

const USAGE = `usage: toolseam run-due [--config FILE] [--db FILE|URL] [--provider NAME] [--model ID] [--base-url URL] [--verbose]

Runs every automation that is due now, once, and exits: for a system scheduler (cron, a systemd
timer) when \`toolseam serve\` is not running. Each run is an unattended turn in a session of its own:
a tool that would ask for approval is refused, and the model is told why. An occurrence missed while
nothing ran is run once (not once per missed time), and its result says how late it ran. Two of these
(or one and \`toolseam serve\`) on the same database never run the same occurrence twice.
Prints one line per run (with what the notify channel answered); exits 1 when a run failed.
--db names the database: a SQLite file, or a postgres:// URL.

${VERBOSE_HELP}`;

/** `toolseam run-due`: runs what is due, once, and exits. */
export const runDueCommand: Command = async (argv) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...RUNTIME_FLAGS, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length > 0) {
    throw new InputError(`run-due takes no words of its own, but got "${positionals.join(' ')}".`);
  }
  const config = configFromFlags(values);
  const runtime = await runtimeFromFlags(values, { config, unattended: true });
  const { createAutomationScheduler } = await import('../create-automations.js');
  try {
    const scheduler = createAutomationScheduler(runtime, { config, logger: runtime.logger });
    const ran = await scheduler.runDue();
    if (ran.length === 0) process.stdout.write('nothing is due.\n');
    for (const run of ran) {
      const late = run.lateMs >= 60_000 ? `, ${durationText(run.lateMs)} late` : '';
      const session = run.sessionId ? ` (session ${run.sessionId})` : '';
      process.stdout.write(
        `${visible(run.automation)}: ${run.status}${late}${session}; notify: ${run.notified}\n`,
      );
    }
    return ran.some((run) => run.status === 'failed') ? 1 : 0;
  } finally {
    await runtime.close();
  }
};
