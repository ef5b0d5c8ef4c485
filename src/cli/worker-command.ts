import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';
import { hostedQueue, type QueueConfig } from '../queue-config.js';
import { isPostgresUrl, redactedUrl } from '../store/postgres-url.js';
import type { Command } from './command.js';
import { configFromFlags, databasePathFrom } from './config-flags.js';
import { hostSignals } from './host-signals.js';
import { hostedSetup, startHostedJobs } from './hosted-jobs.js';
import { RUNTIME_FLAGS, runtimeFromFlags, VERBOSE_HELP } from './runtime-flags.js';

const USAGE = `usage: toolseam worker [--queue URL] [--concurrency N] [--config FILE] [--db FILE|URL]
                       [--provider NAME] [--model ID] [--base-url URL] [--verbose]

Runs turns, subagent leaves and due automations from the job queue of a hosted deployment: any
number of workers and \`toolseam serve\` processes share one PostgreSQL database. A turn whose worker
dies is taken over by another worker and goes on from the store; a turn waiting for an approval is
parked in the store and goes on, in whichever worker, once it is answered. A subagent batch's leaves
are jobs of their own, run by any worker, while their parent turn is parked; the worker that ends the
last leaf sends the turn's continuation.
  --queue URL       the postgres:// database of the job queue (default: the config's "queue", or its
                    "db" when that is PostgreSQL)
  --concurrency N   turns run at once in this process, and as many leaves (default: the config's,
                    else 4)
SIGTERM or Ctrl-C: takes no more jobs, lets the turns under way end (up to 8 s; those still running
are taken over by another worker), exits.
${VERBOSE_HELP}`;

/** `toolseam worker`: works on the hosted job queue. */
export const workerCommand: Command = async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...RUNTIME_FLAGS,
      queue: { type: 'string' },
      concurrency: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const concurrency = concurrencyOf(values.concurrency);
  const config = configFromFlags(values);
  const queue = queueOf(values.queue, hostedQueue(config.queue, databasePathFrom(values, config)));
  const setup = hostedSetup(queue, true);
  const logger = createLogger({ level: values.verbose ? 'info' : 'warn' });
  // The serve processes' streams and waiting answers are woken from here (a PostgreSQL store or queue).
  const signals = await hostSignals(undefined, [queue.url], logger);
  const runtime = await runtimeFromFlags(values, {
    config,
    logger,
    hosted: setup.runtime,
    ...(signals ? { signals } : {}),
  });
  // The hub keeps each turn's events in the store, where every `serve` streams them from.
  const { TurnHub } = await import('../server/turn-hub.js');
  const hub = new TurnHub({ store: runtime.options.store, logger: runtime.logger, signals: runtime.signals });
  let jobs: Awaited<ReturnType<typeof startHostedJobs>>;
  try {
    jobs = await startHostedJobs(runtime, {
      queue,
      setup,
      config,
      logger: runtime.logger,
      events: (first, rest) => hub.run(first, rest, () => undefined).ended,
      leafEvents: (sessionId, turnId, event) => hub.keep(sessionId, turnId, event),
      ...(concurrency !== undefined ? { concurrency } : {}),
    });
  } catch (error) {
    await runtime.close();
    throw new InputError(
      `the job queue at ${redactedUrl(queue.url)} could not be opened: ${(error as Error).message}`,
    );
  }
  const n = concurrency ?? queue.concurrency ?? 4;
  process.stdout.write(`toolseam worker: working (${n} at once) on ${redactedUrl(queue.url)}\n`);
  // Turns a dead process left are looked for at once, not only at the first sweep.
  void jobs.turns.sweep();
  return new Promise<number>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      process.stderr.write('toolseam worker: stopping\n');
      setTimeout(() => process.exit(1), 10_000).unref();
      void (async () => {
        await jobs.stop(8_000).catch(() => undefined);
        await hub.flushed();
        if (hub.runningTurns().length > 0 || (jobs.leaves?.busy ?? 0) > 0) {
          // Closing the runtime would stop them as if a person had: left to be taken over instead.
          await runtime.options.registry.close().catch(() => undefined);
          process.exit(0);
        }
        await runtime.close();
        resolve(0);
      })();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
};

/** The queue from --queue, else the config's. */
function queueOf(flag: string | undefined, configured: QueueConfig | undefined): QueueConfig {
  if (flag !== undefined) {
    if (!isPostgresUrl(flag)) throw new InputError(`--queue takes a postgres:// URL, not "${flag}".`);
    return { ...configured, url: flag };
  }
  if (configured) return configured;
  throw new InputError(
    'toolseam worker needs a job queue: pass --queue postgres://…, or set "queue" (or a PostgreSQL "db") in toolseam.json.',
  );
}

/** The --concurrency value: a whole number from 1 to 64. */
function concurrencyOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    throw new InputError(`--concurrency takes a whole number from 1 to 64, not "${value}".`);
  }
  return n;
}
