/** Severity of a log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One structured log record. */
export interface LogRecord {
  readonly level: LogLevel;
  /** Which part of toolseam speaks, e.g. `seam`, `census`, `runtime`. */
  readonly scope: string;
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** Where log records go. */
export type LogSink = (record: LogRecord) => void;

/** The one structured logger every part writes to. */
export interface Logger {
  log(record: LogRecord): void;
  /** Logs a record only the first time `key` is seen in this process (per sink). */
  once(key: string, record: LogRecord): void;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Builds a logger writing to `sink` (stderr lines by default) at `level` and above. */
export function createLogger(options: { sink?: LogSink; level?: LogLevel } = {}): Logger {
  const sink = options.sink ?? stderrSink;
  const floor = LEVELS[options.level ?? 'info'];
  const seen = new Set<string>();
  return {
    log(record) {
      if (LEVELS[record.level] >= floor) sink(record);
    },
    once(key, record) {
      if (seen.has(key)) return;
      seen.add(key);
      if (LEVELS[record.level] >= floor) sink(record);
    },
  };
}

/** Writes `level scope: message` lines to stderr. */
export function stderrSink(record: LogRecord): void {
  process.stderr.write(`${record.level} ${record.scope}: ${record.message}\n`);
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = { log() {}, once() {} };

/** A logger that keeps its records in memory, for tests and the Tools page. */
export function memoryLogger(): Logger & { readonly records: LogRecord[] } {
  const records: LogRecord[] = [];
  const logger = createLogger({ sink: (r) => records.push(r), level: 'debug' });
  return Object.assign(logger, { records });
}
