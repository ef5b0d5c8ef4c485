import { AT_COMMAND, CHANGES_FILES, redirectTargets } from './shell-words.js';

/** A way of handing work to the system scheduler, and how a command using it is recognized. */
interface SchedulerUse {
  readonly what: string;
  readonly matches: (command: string) => boolean;
}

const SCHEDULER_FILES =
  /\/etc\/cron|\/var\/spool\/cron|Library\/Launch(?:Agents|Daemons)|systemd\/(?:system|user)\/\S*\.timer\b/;

function pattern(what: string, re: RegExp): SchedulerUse {
  return { what, matches: (command) => re.test(command) };
}

const SCHEDULER_USES: readonly SchedulerUse[] = [
  // `crontab -l` only lists the table.
  pattern('crontab', new RegExp(`${AT_COMMAND}crontab\\b(?![^;&|\\n]*\\s-l\\b)`)),
  pattern('at', new RegExp(`${AT_COMMAND}(?:at|batch)\\s+(?!-l\\b)\\S`)),
  pattern(
    'a systemd timer',
    /\bsystemctl\b[^;&|\n]*\b(?:enable|start|link|reenable|edit)\b[^;&|\n]*\.timer\b/,
  ),
  pattern(
    'a systemd timer',
    /\bsystemd-run\b[^;&|\n]*--on-(?:calendar|active|boot|startup|unit-active|unit-inactive)\b/,
  ),
  pattern('launchd', /\blaunchctl\s+(?:load|bootstrap|submit|enable)\b/),
  pattern('the Windows task scheduler', /\bschtasks(?:\.exe)?\s+\/create\b/i),
  {
    what: 'the scheduler files',
    matches: (command) =>
      SCHEDULER_FILES.test(command) &&
      (CHANGES_FILES.test(command) || redirectTargets(command).some((t) => SCHEDULER_FILES.test(t))),
  },
];

/** The system scheduler a command would hand work to, if any. */
export function schedulerUse(command: string): string | undefined {
  return SCHEDULER_USES.find((use) => use.matches(command))?.what;
}
