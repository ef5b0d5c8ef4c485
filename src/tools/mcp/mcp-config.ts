import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../../core/errors.js';
import { isPlainObject } from '../../core/json.js';

/** How long toolseam waits on an MCP server, in milliseconds. */
export interface McpTimeouts {
  /** Spawning or connecting, plus the `initialize` handshake. */
  readonly startMs: number;
  /** One `tools/list` (all of its pages). */
  readonly listMs: number;
  /** One `tools/call`. */
  readonly callMs: number;
  /**
   * How long a listing of the server's tools (at a turn's start) waits for a server still starting or
   * listing before going on without its tools; the start goes on, and the tools join once it is up.
   */
  readonly waitMs: number;
}

/** The timeouts used when neither the server entry nor the host sets one. */
export const DEFAULT_MCP_TIMEOUTS: McpTimeouts = {
  startMs: 30_000,
  listMs: 30_000,
  callMs: 60_000,
  waitMs: 10_000,
};

/** How many call timeouts a call that keeps reporting progress may run for in all. */
export const PROGRESS_LIMIT = 10;

/** Restart pacing after a failed start or a crash. */
export interface McpBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
}

/** The pacing used when the host sets none: 1 s, doubling up to a minute. */
export const DEFAULT_MCP_BACKOFF: McpBackoff = { initialMs: 1_000, maxMs: 60_000 };

interface McpServerBase {
  /** The key under `mcpServers`; tools are named `mcp/<name>/<tool>`. */
  readonly name: string;
  /** Per-server overrides of the host's timeouts. */
  readonly timeouts?: Partial<McpTimeouts>;
}

/** A server toolseam starts as a child process and talks to over stdin/stdout. */
export interface McpStdioServerConfig extends McpServerBase {
  readonly kind: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the small safe environment the MCP SDK passes on (PATH, HOME, …). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerConfig extends McpServerBase {
  readonly kind: 'http';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Any MCP server a config file can name. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

const STDIO_KEYS = new Set(['command', 'args', 'env', 'cwd']);
const HTTP_KEYS = new Set(['url', 'headers']);
const TIMEOUT_KEYS: Record<string, keyof McpTimeouts> = {
  startMs: 'startMs',
  listMs: 'listMs',
  callMs: 'callMs',
  waitMs: 'waitMs',
};

/** Options for {@link parseMcpServers}. */
export interface ParseMcpServersOptions {
  /** Names the file in error messages. */
  readonly source?: string;
  /** Folder a relative `cwd` is read from (the config file's folder). */
  readonly baseDir?: string;
}

/**
 * Reads an `mcpServers` section in the shape Claude Desktop and most MCP clients use:
 * `{ name: {command, args?, env?, cwd?} | {url, headers?} }`. Entries with `"disabled": true` are skipped.
 * Throws an InputError naming the entry and what to change.
 */
export function parseMcpServers(section: unknown, options: ParseMcpServersOptions = {}): McpServerConfig[] {
  const where = options.source ? ` in ${options.source}` : '';
  if (section === undefined || section === null) return [];
  if (!isPlainObject(section)) {
    throw new InputError(
      `"mcpServers"${where} must be an object mapping a server name to its settings, e.g. {"notes": {"command": "node", "args": ["server.js"]}}.`,
      options.source,
    );
  }
  const servers: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(section)) {
    const server = parseEntry(name, entry, `"mcpServers.${name}"${where}`, options);
    if (server) servers.push(server);
  }
  return servers;
}

function parseEntry(
  name: string,
  entry: unknown,
  label: string,
  options: ParseMcpServersOptions,
): McpServerConfig | undefined {
  const fail = (what: string) => new InputError(`${label}: ${what}`, options.source);
  if (name.trim() === '') throw fail('a server needs a non-blank name.');
  if (name.includes('/'))
    throw fail('a server name cannot contain "/" (its tools are named mcp/<server>/<tool>).');
  if (!isPlainObject(entry)) {
    throw fail(
      'must be an object with "command" (a program to start) or "url" (a Streamable HTTP endpoint).',
    );
  }
  if (entry.disabled === true) return undefined;
  const hasCommand = 'command' in entry;
  const hasUrl = 'url' in entry;
  const type = entry.type ?? entry.transport;
  if (type === 'sse') {
    throw fail(
      'the SSE transport is not supported; point "url" at the server\'s Streamable HTTP endpoint instead.',
    );
  }
  if (hasCommand && hasUrl)
    throw fail('has both "command" and "url"; keep the one that starts or reaches the server.');
  if (!hasCommand && !hasUrl) {
    throw fail(
      'needs "command" (a program toolseam starts, with "args") or "url" (a Streamable HTTP endpoint).',
    );
  }
  const timeouts = readTimeouts(entry.timeouts, fail);
  const base = timeouts ? { name, timeouts } : { name };
  if (hasCommand) {
    rejectForeign(entry, HTTP_KEYS, 'a stdio server (it has "command")', fail);
    const command = entry.command;
    if (typeof command !== 'string' || command.trim() === '')
      throw fail('"command" must be a non-empty string.');
    const args = readStringList(entry.args, '"args"', fail);
    const env = readStringMap(entry.env, '"env"', fail);
    const server: McpStdioServerConfig = { ...base, kind: 'stdio', command, args, env };
    if (entry.cwd === undefined) return server;
    if (typeof entry.cwd !== 'string' || entry.cwd === '') throw fail('"cwd" must be a folder path.');
    const cwd = isAbsolute(entry.cwd) ? entry.cwd : resolve(options.baseDir ?? process.cwd(), entry.cwd);
    return { ...server, cwd };
  }
  rejectForeign(entry, STDIO_KEYS, 'an HTTP server (it has "url")', fail);
  const url = readUrl(entry.url, fail);
  const headers = readStringMap(entry.headers, '"headers"', fail);
  return { ...base, kind: 'http', url, headers };
}

function rejectForeign(
  entry: Record<string, unknown>,
  foreign: ReadonlySet<string>,
  what: string,
  fail: (what: string) => InputError,
): void {
  const found = Object.keys(entry).filter((k) => foreign.has(k));
  if (found.length > 0)
    throw fail(`${found.map((k) => `"${k}"`).join(', ')} has no meaning for ${what}; remove it.`);
}

function readUrl(value: unknown, fail: (what: string) => InputError): string {
  if (typeof value !== 'string') throw fail('"url" must be a string such as "http://127.0.0.1:3000/mcp".');
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    // A user and password before the host are credentials even in a URL that does not parse.
    const shown = value.replace(/^([a-z][\w+.-]*:\/\/)[^/?#]*@/i, '$1…@');
    throw fail(`"url" ${JSON.stringify(shown)} is not a valid URL.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw fail(`"url" must start with http:// or https://, not ${parsed.protocol}//.`);
  }
  return value;
}

function readStringList(value: unknown, label: string, fail: (what: string) => InputError): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw fail(`${label} must be a list of strings.`);
  return value.map((item, i) => {
    if (typeof item !== 'string') throw fail(`${label}[${i}] must be a string, not ${describe(item)}.`);
    return item;
  });
}

function readStringMap(
  value: unknown,
  label: string,
  fail: (what: string) => InputError,
): Record<string, string> {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw fail(`${label} must be an object of string values.`);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'string') throw fail(`${label}.${key} must be a string, not ${describe(item)}.`);
    out[key] = item;
  }
  return out;
}

/** Reads the host-wide `mcpTimeouts` object (`startMs`, `listMs`, `callMs`, `waitMs`, positive milliseconds). */
export function parseMcpTimeouts(value: unknown, source?: string): Partial<McpTimeouts> {
  const fail = (what: string) => new InputError(source ? `${source}: ${what}` : what, source);
  return readTimeouts(value, fail, 'mcpTimeouts') ?? {};
}

function readTimeouts(
  value: unknown,
  fail: (what: string) => InputError,
  label = 'timeouts',
): Partial<McpTimeouts> | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    throw fail('"timeouts" must be an object such as {"startMs": 30000, "callMs": 60000}.');
  const out: { -readonly [K in keyof McpTimeouts]?: number } = {};
  for (const [key, item] of Object.entries(value)) {
    const field = TIMEOUT_KEYS[key];
    if (!field)
      throw fail(`"${label}.${key}" is not a timeout toolseam knows; use startMs, listMs, callMs or waitMs.`);
    if (typeof item !== 'number' || !Number.isFinite(item) || item <= 0) {
      throw fail(`"${label}.${key}" must be a positive number of milliseconds.`);
    }
    out[field] = item;
  }
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
