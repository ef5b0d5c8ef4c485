import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import type { RuntimeEvent } from '../core/events.js';
import { createLogger } from '../core/logger.js';
import { hostedQueue } from '../queue-config.js';
import type { TurnHub } from '../server/turn-hub.js';
import type { Command } from './command.js';
import { configFromFlags, databasePathFrom } from './config-flags.js';
import { hostSignals, storePollMs } from './host-signals.js';
import type { HostedJobs } from './hosted-jobs.js';
import { packageRoot, packageVersion } from './package-version.js';
import { RUNTIME_FLAGS, runtimeFromFlags, VERBOSE_HELP } from './runtime-flags.js';

type TurnStart = Extract<RuntimeEvent, { type: 'turn-start' }>;

const USAGE = `usage: toolseam serve [--port 7878] [--host 127.0.0.1] [--config FILE] [--db FILE|URL]
                      [--provider NAME] [--model ID] [--base-url URL] [--approve ask|auto|deny]
                      [--signals postgres://…] [--verbose]

Serves the HTTP API (under /api/, described at /api/openapi.json) and the web page (at /, built by
\`npm run build\`) from one runtime, over the same database the other commands use: an approval
answered on the page or with \`toolseam approve\` is the same answer. Turns a stopped server left
waiting go on from where they were.
  --port N      the port to listen on (default 7878; 0 picks a free one)
  --host ADDR   the address to listen on (default 127.0.0.1). Any address but loopback needs a token:
                made on first start, kept in <db>.token (readable by you alone) and printed once
  --db FILE|URL the SQLite file, or postgres://USER@HOST:PORT/DATABASE for a PostgreSQL store that
                several serve processes share (default as for \`toolseam chat\`)
  --signals URL a PostgreSQL database (postgres://…) whose LISTEN/NOTIFY carries wake-ups between
                several serve processes on one store: a turn's events reach a stream on any of
                them, an approval answered on one wakes the turn waiting on another. Default: the
                database itself when --db is postgres://, else the job queue's, else $TOOLSEAM_SIGNALS, else
                within this process.
                Streams and waiting turns still read the store every 5 s ($TOOLSEAM_STORE_POLL_MS)

With a job queue (the config's "queue", or a PostgreSQL database), turns go through the queue and run
here and in any \`toolseam worker\` (with "queue": {"work": false}, only in the workers).
SIGTERM or Ctrl-C: no new turns, running ones stopped (those waiting for an approval stay waiting in
the database), streams closed, exit within 10 s.
${VERBOSE_HELP}`;

/** `toolseam serve`: the API and the page. */
export const serveCommand: Command = async (argv) => {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...RUNTIME_FLAGS,
      port: { type: 'string' },
      host: { type: 'string' },
      signals: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const port = portOf(values.port);
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw new InputError('--host needs an address such as 127.0.0.1 or 0.0.0.0.');
  const config = configFromFlags(values);
  const logger = createLogger({ level: values.verbose ? 'info' : 'warn' });
  const pollMs = storePollMs(process.env.TOOLSEAM_STORE_POLL_MS);
  // Hosted mode (a "queue", or a PostgreSQL "db"): turns go through the job queue; workers run them.
  const queue = hostedQueue(config.queue, databasePathFrom(values, config));
  const signals = await hostSignals(values.signals, [values.db ?? config.db, queue?.url], logger);
  const works = queue !== undefined && queue.work !== false;
  const setup = queue ? (await import('./hosted-jobs.js')).hostedSetup(queue, works) : undefined;
  const runtime = await runtimeFromFlags(values, {
    config,
    logger,
    ...(signals ? { signals } : {}),
    ...(pollMs !== undefined ? { approvalPollMs: pollMs } : {}),
    ...(setup ? { hosted: setup.runtime } : {}),
  });
  // Loaded only here: no other command, and no `import('toolseam')`, loads the HTTP framework.
  const { startServer } = await import('../server/index.js');
  const root = packageRoot();
  let server: Awaited<ReturnType<typeof startServer>>;
  let jobs: HostedJobs | undefined;
  const serving = {
    runtime,
    host,
    port,
    version: packageVersion(),
    ...(pollMs !== undefined ? { pollMs } : {}),
    ...(root !== undefined ? { webRoot: join(root, 'dist', 'web') } : {}),
  };
  try {
    if (queue && setup) {
      const { startHostedJobs } = await import('./hosted-jobs.js');
      // This server's own hub keeps the events of the turns it works on (once it listens, below).
      let hubReady: (hub: TurnHub) => void = () => undefined;
      const hubOnce = new Promise<TurnHub>((resolve) => {
        hubReady = resolve;
      });
      const sink = async (first: TurnStart, rest: AsyncIterator<RuntimeEvent>): Promise<void> =>
        (await hubOnce).run(first, rest, () => undefined).ended;
      const leafSink = (sessionId: string, turnId: string, event: RuntimeEvent): void =>
        void hubOnce.then((hub) => hub.keep(sessionId, turnId, event));
      jobs = await startHostedJobs(runtime, {
        queue,
        setup,
        config,
        logger: runtime.logger,
        ...(works ? { events: sink, leafEvents: leafSink } : {}),
      });
      const turns = jobs.turns;
      server = await startServer({
        ...serving,
        queued: async (sessionId, text, mode) => {
          const turn = await runtime.queueTurn(sessionId, text, mode ? { mode } : {});
          await turns.enqueue(turn.id);
          return turn.id;
        },
      });
      hubReady(server.hub);
    } else {
      server = await startServer(serving);
    }
  } catch (error) {
    await jobs?.stop(1_000).catch(() => undefined);
    await runtime.close();
    throw error;
  }
  // One write, so a reader that waits for the URL has the rest of what the start says too.
  const lines = [`toolseam serve: ${server.url}`];
  if (server.token?.created) {
    lines.push(`token (shown once; kept in ${server.token.file}): ${server.token.token}`);
  } else if (server.token) {
    lines.push(`token: in ${server.token.file}`);
  }
  if (server.resumed.length > 0) {
    lines.push(`resumed ${server.resumed.length} unfinished turn(s): ${server.resumed.join(', ')}`);
  }
  if (jobs)
    lines.push(`job queue: ${works ? 'turns are sent and worked on here' : 'turns are sent to the workers'}`);
  // Due automations run here, as unattended turns, when the config has an "automations" section (in
  // hosted mode they are sent to the queue instead, by `startHostedJobs`).
  const automations =
    config.automations && !jobs
      ? (await import('../create-automations.js')).startAutomations(runtime, {
          config,
          logger: runtime.logger,
        })
      : undefined;
  if (automations) lines.push('automations: due ones run here');
  process.stdout.write(`${lines.join('\n')}\n`);
  return new Promise<number>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      process.stderr.write('toolseam serve: stopping\n');
      // The bound holds even if a turn or the store hangs.
      setTimeout(() => process.exit(1), 10_000).unref();
      void (async () => {
        await automations?.stop();
        await jobs?.stop(6_000).catch(() => undefined);
        await server.shutdown(8_000);
        if (server.hub.runningTurns().length === 0) {
          await runtime.close();
          resolve(0);
          return;
        }
        // Turns still waiting for approvals: closing the runtime would cancel them, so the process
        // leaves them as they are in the database (the next start takes them over).
        await runtime.options.registry.close().catch(() => undefined);
        process.exit(0);
      })();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
};

/** The --port value: a whole number from 0 to 65535 (default 7878). */
function portOf(value: string | undefined): number {
  if (value === undefined) return 7878;
  const port = Number(value.trim());
  if (value.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InputError(`--port takes a port number from 0 to 65535 (0: any free one), not "${value}".`);
  }
  return port;
}
