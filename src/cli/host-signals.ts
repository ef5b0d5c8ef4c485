import { InputError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { Signals } from '../core/signals.js';
import { isPostgresUrl, redactedUrl } from '../store/postgres-url.js';

/**
 * The wake-ups a process of a host shares with the others (`serve --signals`, `worker`): PostgreSQL
 * LISTEN/NOTIFY on `flag`, else on the first PostgreSQL URL of `shared` (the store, the job queue), else
 * on `$TOOLSEAM_SIGNALS`; undefined when none is named (the runtime then wakes only its own process).
 * The driver loads only when a URL is named.
 */
export async function hostSignals(
  flag: string | undefined,
  shared: readonly (string | undefined)[],
  logger: Logger,
): Promise<Signals | undefined> {
  const url = signalsUrlOf(
    flag,
    shared.find((u) => u !== undefined && isPostgresUrl(u)),
  );
  if (url === undefined) return undefined;
  const { PgSignals } = await import('../store/pg-signals/pg-signals.js');
  return PgSignals.connect({ connectionString: url, logger }).catch((error: Error) => {
    throw new InputError(`--signals: could not reach PostgreSQL at ${redactedUrl(url)} (${error.message}).`);
  });
}

function signalsUrlOf(flag: string | undefined, shared: string | undefined): string | undefined {
  const given = flag ?? shared ?? process.env.TOOLSEAM_SIGNALS;
  if (given === undefined || given.trim() === '') return undefined;
  if (!isPostgresUrl(given.trim())) {
    throw new InputError(
      `--signals takes a PostgreSQL URL (postgres://user@host:5432/db), not "${redactedUrl(given)}".`,
    );
  }
  return given.trim();
}

/**
 * `$TOOLSEAM_STORE_POLL_MS`: how often streams and waiting turns read the store besides the signals
 * (default 1 s in-process, 5 s with --signals); at least 1000.
 */
export function storePollMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = Number(value.trim());
  if (!Number.isInteger(ms) || ms < 1000) {
    throw new InputError(
      `$TOOLSEAM_STORE_POLL_MS is a whole number of milliseconds, at least 1000, not "${value}".`,
    );
  }
  return ms;
}
