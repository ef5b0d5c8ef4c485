import type { JsonObject } from './json.js';

/** What a job is sent with. */
export interface JobSendOptions {
  /**
   * At most one job with this key waits in the queue at a time (a second send while one waits is
   * dropped and answers undefined): e.g. a turn's id, or an automation's occurrence.
   */
  readonly key?: string;
}

/** How a kind of job is worked on in this process. */
export interface JobWorkOptions {
  /** How many jobs of this kind run at once here. */
  readonly concurrency: number;
}

/** Runs one job; a rejection hands the job back to the queue to be tried again later. */
export type JobHandler = (data: JsonObject) => Promise<void>;

/**
 * A durable job queue shared by processes (hosted mode: `toolseam serve` sends, `toolseam worker`
 * works): a job is handed to one worker at a time, and a job whose worker died is handed out again.
 */
export interface JobQueue {
  /** Sends a job of `kind`; its id, or undefined when a job with the same key already waits. */
  send(kind: string, data: JsonObject, options?: JobSendOptions): Promise<string | undefined>;
  /** Starts working on jobs of `kind` in this process. */
  work(kind: string, options: JobWorkOptions, handler: JobHandler): Promise<void>;
  /** Stops taking jobs and waits up to `timeoutMs` for the ones under way; the queue is closed after. */
  stop(options?: { readonly timeoutMs?: number }): Promise<void>;
}
