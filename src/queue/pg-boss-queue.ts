import pg from 'pg';
import PgBoss from 'pg-boss';
import type { JobHandler, JobQueue, JobSendOptions, JobWorkOptions } from '../core/job-queue.js';
import type { JsonObject } from '../core/json.js';
import type { Logger } from '../core/logger.js';
import { silentLogger } from '../core/logger.js';

/** How the pg-boss queue is set up. */
export interface PgBossQueueOptions {
  /** `postgres://…` of the database the jobs live in (usually the session store's). */
  readonly url: string;
  /** The schema pg-boss keeps its tables in (default `toolseam_jobs`). */
  readonly schema?: string;
  /**
   * How often an idle worker asks for jobs when no wake-up came (seconds, default 2). A send wakes
   * every idle worker at once through LISTEN/NOTIFY, so this only bounds a missed wake-up.
   */
  readonly pollSeconds?: number;
  /**
   * How long a job may stay with one worker before pg-boss hands it out again (seconds, default 900).
   * A turn's own takeover goes through the store's heartbeats; this is the queue's safety net.
   */
  readonly expireSeconds?: number;
  /** How often pg-boss's upkeep runs: expiring jobs, archiving (seconds, default 30). */
  readonly maintenanceSeconds?: number;
  readonly logger?: Logger;
}

/** The pg-boss name of a kind of job: one queue per kind. */
function queueName(kind: string): string {
  return `toolseam-${kind}`;
}

/** Opens the job queue on pg-boss (10.x): its schema is made or migrated on the first start. */
export async function openPgBossQueue(options: PgBossQueueOptions): Promise<JobQueue> {
  const schema = options.schema ?? 'toolseam_jobs';
  const logger = options.logger ?? silentLogger;
  const boss = new PgBoss({
    connectionString: options.url,
    schema,
    application_name: 'toolseam-jobs',
    max: 4,
    maintenanceIntervalSeconds: options.maintenanceSeconds ?? 30,
    // Cron is not used: automations are due by the store's own schedule.
    schedule: false,
  });
  boss.on('error', (error: Error) =>
    logger.log({ level: 'warn', scope: 'queue', message: `job queue: ${error.message}` }),
  );
  await boss.start();
  const queue = new PgBossQueue(boss, schema, options, logger);
  await queue.listen();
  return queue;
}

/** The `JobQueue` on pg-boss, with sends waking idle workers through LISTEN/NOTIFY. */
class PgBossQueue implements JobQueue {
  /** pg-boss worker ids of this process, per kind: a wake-up for a kind notifies them. */
  private readonly workers = new Map<string, string[]>();
  private readonly made = new Map<string, Promise<void>>();
  private listener: pg.Client | undefined;
  private readonly channel: string;

  constructor(
    private readonly boss: PgBoss,
    schema: string,
    private readonly options: PgBossQueueOptions,
    private readonly logger: Logger,
  ) {
    this.channel = `${schema}_wake`;
  }

  /** Listens for sends made by any process, to wake this process's idle workers at once. */
  async listen(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.url,
      application_name: 'toolseam-jobs-wake',
    });
    client.on('error', (error) =>
      this.logger.log({ level: 'warn', scope: 'queue', message: `job wake-ups stopped: ${error.message}` }),
    );
    await client.connect();
    client.on('notification', (note) => {
      for (const id of this.workers.get(note.payload ?? '') ?? []) this.boss.notifyWorker(id);
    });
    await client.query(`LISTEN "${this.channel}"`);
    this.listener = client;
  }

  async send(kind: string, data: JsonObject, options: JobSendOptions = {}): Promise<string | undefined> {
    await this.ensure(kind);
    const id = await this.boss.send(queueName(kind), data, {
      ...(options.key !== undefined ? { singletonKey: options.key } : {}),
    });
    if (id !== null) {
      await this.boss.getDb().executeSql('SELECT pg_notify($1, $2)', [this.channel, kind]);
    }
    return id ?? undefined;
  }

  async work(kind: string, options: JobWorkOptions, handler: JobHandler): Promise<void> {
    await this.ensure(kind);
    const ids = this.workers.get(kind) ?? [];
    this.workers.set(kind, ids);
    // One pg-boss worker per slot, a job at a time: a long turn never holds back the next job.
    for (let slot = 0; slot < options.concurrency; slot++) {
      let own = '';
      own = await this.boss.work<JsonObject>(
        queueName(kind),
        { batchSize: 1, pollingIntervalSeconds: this.options.pollSeconds ?? 2 },
        async ([job]) => {
          try {
            if (job) await handler(job.data);
          } finally {
            // More may be waiting: look again at once instead of after the polling interval.
            if (own) this.boss.notifyWorker(own);
          }
        },
      );
      ids.push(own);
    }
  }

  async stop(options: { readonly timeoutMs?: number } = {}): Promise<void> {
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
    const timeout = options.timeoutMs ?? 10_000;
    await this.boss.stop({ graceful: true, wait: true, timeout });
  }

  /** pg-boss's `createQueue`, tried again when processes starting together deadlock on its tables. */
  private async createQueue(kind: string): Promise<void> {
    const options = {
      name: queueName(kind),
      policy: 'short' as const,
      retryLimit: 5,
      retryDelay: 5,
      expireInSeconds: this.options.expireSeconds ?? 900,
    };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.boss.createQueue(queueName(kind), options);
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        // 40P01 deadlock, 23505 made by another process at the same moment: look again.
        if (attempt >= 8 || (code !== '40P01' && code !== '23505')) throw error;
        if (await this.boss.getQueue(queueName(kind))) return;
        await new Promise((r) => setTimeout(r, 50 + Math.random() * 200));
      }
    }
  }

  /**
   * Makes the kind's queue once (pg-boss 10 sends only to queues that exist). Policy `short`: one
   * waiting job per key, any number running, so the job that takes over a dead worker's turn is not
   * held back by that worker's job, still active until it expires (the store decides who drives).
   */
  private ensure(kind: string): Promise<void> {
    let made = this.made.get(kind);
    if (!made) {
      made = this.createQueue(kind);
      this.made.set(kind, made);
      made.catch(() => this.made.delete(kind));
    }
    return made;
  }
}
