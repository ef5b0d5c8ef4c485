import { Cron } from 'croner';
import { AutomationSpecError } from './automation-spec-error.js';

const DAYS: Readonly<Record<string, number>> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};

const EXAMPLES =
  'write a cron expression ("0 8 * * 1-5") or a plain form such as "every weekday at 08:00", ' +
  '"every day at 7:30", "every monday at 9", "every monday and thursday at 18:15", ' +
  '"every weekend at 10am", "every 2 hours", "every 15 minutes" or "every hour"';

/** A time of day as `[minute, hour]`: `8`, `08:00`, `7:30`, `9am`, `5:30pm`. */
function timeOf(text: string, schedule: string): [number, number] {
  const m = /^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$/.exec(text.trim());
  if (!m) throw bad(schedule, `"${text}" is not a time of day (write 08:00, 7:30 or 9am)`);
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  if (m[3] !== undefined) {
    if (hour < 1 || hour > 12) throw bad(schedule, `"${text}": with am or pm the hour is 1 to 12`);
    hour = (hour % 12) + (m[3] === 'pm' ? 12 : 0);
  }
  if (hour > 23 || minute > 59) throw bad(schedule, `"${text}" is not a time of day`);
  return [minute, hour];
}

function dayOf(word: string, schedule: string): number {
  const day =
    DAYS[word] ??
    DAYS[word.replace(/s$/, '')] ??
    Object.entries(DAYS).find(([d]) => d.startsWith(word) && word.length >= 3)?.[1];
  if (day === undefined) throw bad(schedule, `"${word}" is not a day of the week`);
  return day;
}

function bad(schedule: string, why: string): AutomationSpecError {
  return new AutomationSpecError('schedule', `${JSON.stringify(schedule)} cannot be read: ${why}.`);
}

/** The days part of a plain form (`day`, `weekday`, `monday and friday`) as cron's day-of-week field. */
function daysField(days: string, schedule: string): string {
  if (days === 'day') return '*';
  if (days === 'weekday') return '1-5';
  if (days === 'weekend') return '0,6';
  const list = days.split(/\s*(?:,|\band\b)\s*/).filter((d) => d !== '');
  return [...new Set(list.map((d) => dayOf(d, schedule)))].sort((a, b) => a - b).join(',');
}

/** A plain form as cron, or undefined when the text does not start like one. */
function plainForm(text: string, schedule: string): string | undefined {
  if (!text.startsWith('every ') && !['hourly', 'daily', 'weekly'].includes(text)) return undefined;
  if (text === 'every minute') return '* * * * *';
  if (text === 'every hour' || text === 'hourly') return '0 * * * *';
  const interval = /^every (\d+) (minute|hour)s?$/.exec(text);
  if (interval) {
    const n = Number(interval[1]);
    const most = interval[2] === 'minute' ? 59 : 23;
    if (n < 1 || n > most) throw bad(schedule, `every ${n} ${interval[2]}s: the number must be 1 to ${most}`);
    return interval[2] === 'minute' ? `*/${n} * * * *` : `0 */${n} * * *`;
  }
  const at = /^every (.+?) at (.+)$/.exec(text);
  if (at) {
    const [minute, hour] = timeOf(at[2] as string, schedule);
    return `${minute} ${hour} * * ${daysField(at[1] as string, schedule)}`;
  }
  throw bad(schedule, `it says when it repeats but not at what time (add "at 08:00")`);
}

/**
 * The cron expression a schedule is read as: a cron expression as written (checked by croner), or a
 * plain form translated to one. Throws AutomationSpecError naming `schedule`, with examples.
 */
export function cronOf(schedule: string): string {
  const text = schedule.trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') throw new AutomationSpecError('schedule', `it is empty; ${EXAMPLES}.`);
  const cron = plainForm(text, schedule) ?? schedule.trim();
  try {
    new Cron(cron, { paused: true });
  } catch (error) {
    throw bad(schedule, `${(error as Error).message.replace(/^CronPattern: /, '')}; ${EXAMPLES}`);
  }
  return cron;
}

/** Throws a clear error when `timeZone` is not an IANA time zone this Node knows. */
export function checkTimeZone(timeZone: string, field = 'automations.timeZone'): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
  } catch {
    throw new AutomationSpecError(
      field,
      `${JSON.stringify(timeZone)} is not a time zone; write an IANA name such as "Europe/Berlin", "America/New_York" or "UTC".`,
    );
  }
}

/** The first occurrence of `cron` strictly after `after` (epoch ms) in `timeZone`, or null when none is left. */
export function nextOccurrence(cron: string, after: number, timeZone: string): number | null {
  const next = new Cron(cron, { paused: true, timezone: timeZone }).nextRun(new Date(after));
  return next === null ? null : next.getTime();
}
