import { Worker } from 'node:worker_threads';

/** The longest one file's lines may take to match a model's regular expression. */
export const REGEX_DEADLINE_MS = 5000;

/** A regular expression that ran past its deadline (catastrophic backtracking, most likely). */
export class RegexTooSlow extends Error {
  readonly code = 'regex_too_slow';
  constructor(readonly ms: number) {
    super(`the regular expression ran for more than ${ms / 1000} s on one file`);
    this.name = 'RegexTooSlow';
  }
}

// Plain JavaScript run by the worker: it only tests lines, so a runaway expression blocks it alone.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const matcher = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', (lines) => {
  const hits = [];
  for (let i = 0; i < lines.length; i += 1) {
    const found = matcher.exec(lines[i]);
    if (found !== null) hits.push({ index: i, at: found.index });
  }
  parentPort.postMessage(hits);
});
`;

/** A line that matches: its index among the lines tested, and where in it the first match starts. */
export interface LineMatch {
  readonly index: number;
  readonly at: number;
}

/**
 * Tests lines against a model's regular expression in a worker thread, so an expression that
 * backtracks without end is stopped at its deadline (the worker is ended) instead of freezing the
 * process. One file's lines at a time; `close` ends the worker.
 */
export class RegexWorker {
  private readonly worker: Worker;
  private failed: Error | undefined;

  constructor(
    matcher: RegExp,
    private readonly deadlineMs = REGEX_DEADLINE_MS,
  ) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: matcher.source, flags: matcher.flags.replace(/[gy]/g, '') },
    });
    this.worker.unref();
    this.worker.on('error', (error) => {
      this.failed = error;
    });
  }

  /** The lines that match, and where; rejects with `RegexTooSlow` past the deadline or when `signal` aborts. */
  matchLines(lines: readonly string[], signal?: AbortSignal): Promise<LineMatch[]> {
    if (this.failed !== undefined) return Promise.reject(this.failed);
    return new Promise<LineMatch[]>((resolve, reject) => {
      const done = (settle: () => void) => {
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      const onMessage = (hits: LineMatch[]) => done(() => resolve(hits));
      const onError = (error: Error) => done(() => reject(error));
      const onAbort = () => done(() => reject(signal?.reason ?? new Error('stopped')));
      const timer = setTimeout(() => {
        this.failed = new RegexTooSlow(this.deadlineMs);
        void this.worker.terminate();
        done(() => reject(new RegexTooSlow(this.deadlineMs)));
      }, this.deadlineMs);
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.worker.postMessage(lines);
    });
  }

  /** Ends the worker. */
  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
