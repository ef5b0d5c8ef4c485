import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { LocalSignals } from '../../core/local-signals.js';
import { type Logger, silentLogger } from '../../core/logger.js';
import { MAX_SIGNAL_PAYLOAD, type SignalListener, type Signals } from '../../core/signals.js';

/** The one PostgreSQL channel every toolseam process listens on; the topic travels in the payload. */
export const SIGNAL_CHANNEL = 'toolseam_signals';

/** How `PgSignals` connects. */
export interface PgSignalsOptions {
  /** A `postgres://` connection string. */
  readonly connectionString: string;
  readonly logger?: Logger;
  /** The name the connection shows in `pg_stat_activity` (default `toolseam-signals`). */
  readonly applicationName?: string;
  /** The longest wait between two tries to connect again after the connection was lost (ms, default 10 s). */
  readonly maxRetryMs?: number;
}

/**
 * Signals through PostgreSQL LISTEN/NOTIFY, reaching every process connected to the same database.
 * One connection per process listens on one channel (`toolseam_signals`); a notification carries
 * `sender topic\npayload`, and each process hands it to its own subscribers of that topic. A publish
 * wakes this process's subscribers at once, not through the database (its own echo is ignored). When
 * the connection is lost it connects again, waiting longer each time, and then wakes every subscriber
 * once, since signals sent in between were missed.
 */
export class PgSignals implements Signals {
  readonly reachesOtherProcesses = true;
  private readonly local = new LocalSignals();
  /** Tells this process's own notifications from the others'. */
  private readonly sender = randomBytes(6).toString('base64url');
  private readonly logger: Logger;
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private retryMs = 100;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  private constructor(private readonly options: PgSignalsOptions) {
    this.logger = options.logger ?? silentLogger;
  }

  /** Connects and listens; rejects when the database cannot be reached now. */
  static async connect(options: PgSignalsOptions): Promise<PgSignals> {
    const signals = new PgSignals(options);
    await signals.listen();
    return signals;
  }

  async publish(topic: string, payload?: string): Promise<void> {
    if (this.closed) return;
    const hint = payload?.slice(0, MAX_SIGNAL_PAYLOAD);
    this.local.deliver(topic, hint);
    try {
      const client = this.client ?? (await this.listen());
      const text = `${this.sender} ${topic}${hint === undefined ? '' : `\n${hint}`}`;
      await client.query('SELECT pg_notify($1, $2)', [SIGNAL_CHANNEL, text]);
    } catch (error) {
      // The other processes read the store on their slow poll; the connection comes back by itself.
      this.logger.log({
        level: 'warn',
        scope: 'signals',
        message: `could not send the signal ${topic} to other processes: ${(error as Error).message}`,
      });
    }
  }

  subscribe(topic: string, listener: SignalListener): () => void {
    return this.local.subscribe(topic, listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.local.close();
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** The listening connection, made once (shared by concurrent callers). */
  private listen(): Promise<pg.Client> {
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName ?? 'toolseam-signals',
    });
    client.on('notification', (message) => this.received(message.payload));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, undefined));
    try {
      await client.connect();
      await client.query(`LISTEN ${SIGNAL_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      throw new Error('the signals were closed while connecting');
    }
    this.client = client;
    this.retryMs = 100;
    return client;
  }

  private received(text: string | undefined): void {
    if (text === undefined) return;
    const space = text.indexOf(' ');
    if (space < 0 || text.slice(0, space) === this.sender) return;
    const rest = text.slice(space + 1);
    const newline = rest.indexOf('\n');
    const topic = newline < 0 ? rest : rest.slice(0, newline);
    this.local.deliver(topic, newline < 0 ? undefined : rest.slice(newline + 1));
  }

  /** The connection went: connect again later, then wake every subscriber once. */
  private lost(client: pg.Client, error: Error | undefined): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    this.logger.log({
      level: 'warn',
      scope: 'signals',
      message: `lost the PostgreSQL connection that carries signals${error ? `: ${error.message}` : ''}; connecting again`,
    });
    this.retry();
  }

  private retry(): void {
    if (this.closed || this.retryTimer !== undefined) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs ?? 10_000);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.listen().then(
        () => this.local.deliverAll(),
        () => this.retry(),
      );
    }, wait);
    this.retryTimer.unref();
  }
}
