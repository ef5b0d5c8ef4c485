import { InputError } from '../core/errors.js';
import { automationSettings } from '../runtime/automations/automation-settings.js';
import { openStore } from '../store/index.js';
import { automationLines } from '../tools/builtin/automation-tools.js';
import type { Command } from './command.js';
import { configFromFlags, existingDatabaseFrom, noDatabaseYet } from './config-flags.js';
import { storeCommandArgs } from './store-command-args.js';
import { visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam automations [--db FILE|URL] [--config FILE] [--json]

Lists the automations: each one's schedule (and the cron it is read as), its next run in the time
zone "automations.timeZone" in the config names (else this machine's), and how its last run went,
with the session to open for it. Automations are made in chat (automation_create). They run in
\`toolseam serve\`, or with \`toolseam run-due\` from a system scheduler. --json prints {"automations": [...]}.
--db names the database: a SQLite file, or a postgres:// URL.`;

/** `toolseam automations`: the automations with their next runs and last results. */
export const automationsCommand: Command = async (argv) => {
  const args = storeCommandArgs(argv, USAGE);
  if (!args) return 0;
  const { values, positionals } = args;
  if (positionals.length > 0) {
    throw new InputError(`automations takes no words of its own, but got "${positionals.join(' ')}".`);
  }
  const config = configFromFlags(values);
  const { timeZone } = automationSettings(config.automations);
  const db = existingDatabaseFrom(values);
  if (!db.exists) {
    if (values.json) process.stdout.write(`${JSON.stringify({ automations: [] }, null, 2)}\n`);
    else process.stdout.write(`no automations yet: ${noDatabaseYet(db)}.\n`);
    return 0;
  }
  const store = await openStore(db.path);
  try {
    const automations = await store.listAutomations();
    if (values.json) {
      process.stdout.write(`${visibleLines(JSON.stringify({ timeZone, automations }, null, 2))}\n`);
      return 0;
    }
    if (automations.length === 0) {
      process.stdout.write('no automations yet (automation_create makes one in chat).\n');
      return 0;
    }
    const lines = [
      `automations (times in ${timeZone}; ${store.path}):`,
      ...automations.map((a) => automationLines(a, timeZone)),
    ];
    process.stdout.write(`${visibleLines(lines.join('\n'))}\n`);
    return 0;
  } finally {
    await store.close();
  }
};
