import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * Commits between two checkpoints asked of the worker. A tool-using turn commits ~6 times, ~8 pages
 * each, so this is about SQLite's own threshold (1,000 pages of log) in turns.
 */
export const CHECKPOINT_EVERY_COMMITS = 120;

/**
 * The writing connection's own threshold (pages of log) while the worker checkpoints: a bound on the
 * log should the worker fall behind, not a point it is meant to reach.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;

/** SQLite's default threshold, given back to the writing connection when the worker fails. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/** Passes one checkpoint makes at most to catch up with what the writer committed during the last. */
const CHECKPOINT_PASSES = 8;

/** What one checkpoint reported: frames in the log, how many of them are now in the database file, passes made. */
export interface CheckpointReport {
  readonly log: number;
  readonly checkpointed: number;
  readonly passes: number;
}

// Plain JavaScript run by the worker on a connection of its own. PASSIVE copies what it can without
// waiting for the writer, which goes on appending to the log meanwhile.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// On Linux a thread has a nice value of its own: the copying gives way to the turns on a busy machine.
if (process.platform === 'linux') {
  try { require('node:os').setPriority(19); } catch {}
}
const db = new Database(workerData.file, { fileMustExist: true });
parentPort.on('message', (ask) => {
  if (ask === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    // A pass copies the frames there were when it began, and the writer commits meanwhile. The log
    // starts over (instead of growing) only at a write that finds every frame in it copied, so passes
    // go on, each shorter than the last, until one finds nothing new.
    let row = db.pragma('wal_checkpoint(PASSIVE)')[0];
    let passes = 1;
    for (let before = -1; row.log !== before && passes < workerData.passes; passes += 1) {
      before = row.log;
      row = db.pragma('wal_checkpoint(PASSIVE)')[0];
    }
    parentPort.postMessage({ log: row.log, checkpointed: row.checkpointed, passes });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) });
  }
});
`;

/** Options for tests: how often to checkpoint, and the SQLite driver the worker loads. */
export interface WalCheckpointerOptions {
  readonly everyCommits?: number;
  readonly driver?: string;
}

/**
 * Checkpoints a WAL database from a worker thread. SQLite's automatic checkpoint runs inside the commit
 * that crosses its threshold, on the thread that wrote: copying the log into the file and syncing both
 * stalled every session on the event loop for milliseconds (~14 ms each ~25 turns on a 2-core machine).
 * The worker starts at the first checkpoint, so a short command never starts one; when it fails, the
 * writing connection checkpoints as SQLite does by default again.
 */
export class WalCheckpointer {
  /** The worker while it checkpoints; `thread` stays set once one was started, to wait for its end. */
  private worker: Worker | undefined;
  private thread: Worker | undefined;
  /** Settles when the worker's thread has ended, however it ended. */
  private exited: Promise<void> | undefined;
  /** Settles the checkpoint under way, if one is. */
  private answer: (() => void) | undefined;
  private commits = 0;
  private running: Promise<void> | undefined;
  private failed = false;
  private closing = false;
  private starts = 0;
  /** What the last checkpoint reported, once one has run. */
  last: CheckpointReport | undefined;
  /** Why the last checkpoint failed, or why the worker stopped, if one did. */
  failure: string | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly options: WalCheckpointerOptions = {},
  ) {
    db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  }

  /** How many worker threads were started (one at most, unless none could be). */
  get started(): number {
    return this.starts;
  }

  /** Counts a commit; every `everyCommits` of them, asks for a checkpoint unless one is running. Never throws. */
  committed(): void {
    this.commits += 1;
    if (this.commits < (this.options.everyCommits ?? CHECKPOINT_EVERY_COMMITS)) return;
    if (this.running !== undefined || this.failed) return;
    this.commits = 0;
    this.running = this.checkpoint().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once no checkpoint is running. */
  async settled(): Promise<void> {
    await this.running;
  }

  /** Ends the worker, closing its connection first so the writer's close is the last (and tidies the log). */
  async close(): Promise<void> {
    this.failed = true;
    this.closing = true;
    // Awaited, the thread keeps the process alive: a process whose last work is this close would end
    // with the close unsettled (a top-level await exits with code 13).
    this.thread?.ref();
    const worker = this.worker;
    if (worker !== undefined) {
      await this.running;
      worker.postMessage('close');
    }
    await this.exited;
    this.worker = undefined;
  }

  private checkpoint(): Promise<void> {
    let worker: Worker;
    try {
      worker = this.worker ?? this.start();
    } catch (error) {
      // No thread to be had (ERR_WORKER_INIT_FAILED): the commit that asked has been made all the same.
      this.fallBack((error as Error).message);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      this.answer = resolve;
      worker.postMessage('checkpoint');
    });
  }

  private start(): Worker {
    const driver = this.options.driver ?? createRequire(import.meta.url).resolve('better-sqlite3');
    this.starts += 1;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file: this.db.name, passes: CHECKPOINT_PASSES },
    });
    // A checkpoint left unfinished is safe: the next one, or the last connection's close, does it again.
    worker.unref();
    worker.on('message', (report: CheckpointReport | { error: string }) => {
      // A checkpoint that could not run (another one held the lock) is tried again at the next ask.
      if ('error' in report) this.failure = report.error;
      else {
        this.last = report;
        this.failure = undefined;
      }
      this.settle();
    });
    // Listened to for the worker's whole life: a thread that fails or ends between two checkpoints
    // would otherwise leave the next one, and the store's close, waiting for ever.
    worker.on('error', (error) => this.fallBack(error.message));
    this.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        if (!this.closing) this.fallBack(`the checkpoint worker stopped with exit code ${code}`);
        resolve();
      }),
    );
    this.worker = worker;
    this.thread = worker;
    return worker;
  }

  private settle(): void {
    const answer = this.answer;
    this.answer = undefined;
    answer?.();
  }

  /** The worker could not checkpoint: the writing connection takes it back, as SQLite does by default. */
  private fallBack(reason: string): void {
    this.settle();
    if (this.failed && this.worker === undefined) return;
    this.failed = true;
    this.failure = reason;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  }
}
