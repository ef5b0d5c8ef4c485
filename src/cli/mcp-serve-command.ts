import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';
import type { Command } from './command.js';
import { configFromFlags, databasePathFrom } from './config-flags.js';
import { packageVersion } from './package-version.js';

const USAGE = `usage: toolseam mcp-serve [--config FILE] [--db FILE|URL] [--http PORT] [--host HOST]
       [--tools PATTERN...] [--verbose]

Serves toolseam's own tools to another agent (Claude Code, Codex, Claude Desktop, Cursor…) as an MCP
server: on stdin and stdout by default, as a client starts it, or over Streamable HTTP at
http://HOST:PORT/mcp with --http. A client lists the tools as toolseam offers them to models (the same
names and schemas) and each call goes through the same checks as a chat's: the deny-list, disabled
tools, hooks, a tool's own refusals, then the approval policy. A call that needs approval is put to
the person through the client when it can ask; otherwise the call's error names an approval to answer
with \`toolseam approve ID yes\`, after which the same call runs once. Every client connection is a
session in the database (\`toolseam sessions\` lists it).
  --config FILE      the config to read (default: ./toolseam.json, if there is one)
  --db FILE|URL      the session database, a SQLite file or a postgres:// URL (default as for
                     \`toolseam chat\`)
  --http PORT        serve over Streamable HTTP on PORT (0: any free port; the URL is printed on stderr)
  --host HOST        the address to listen on with --http (default 127.0.0.1)
  --tools PATTERN... serve the tools whose real names match these globs, instead of the config's
                     "serve": {"tools": [...]} and the default (the file, memory and task tools and
                     every installed app's tools); another MCP server's tools only by a pattern that
                     names them from its first character (mcp/github/*)
  --verbose          also print info log lines on stderr`;

/** `toolseam mcp-serve`: toolseam's tools served over MCP (stdio, or Streamable HTTP with --http). */
export const mcpServeCommand: Command = async (argv) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      db: { type: 'string' },
      http: { type: 'string' },
      host: { type: 'string' },
      tools: { type: 'string', multiple: true },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (positionals.length > 0 && values.tools === undefined) {
    throw new InputError(
      `mcp-serve takes no words of its own, but "${positionals.join(' ')}" followed; name tools with --tools PATTERN...`,
    );
  }
  const port = portOf(values.http);
  if (values.host !== undefined && port === undefined) throw new InputError('--host goes with --http PORT.');
  const config = configFromFlags(values);
  const db = databasePathFrom(values, config);
  const patterns = values.tools ? [...values.tools, ...positionals] : config.serve?.tools;
  // Imported once the flags are read: --help or a mistyped flag loads no runtime and no MCP SDK.
  const [{ createRuntime }, surface] = await Promise.all([
    import('../create-runtime.js'),
    import('../mcp-surface/index.js'),
  ]);
  const runtime = await createRuntime({
    model: surface.servingModel,
    config,
    ...(db ? { store: db } : {}),
    logger: createLogger({ level: values.verbose ? 'info' : 'warn' }),
    subagents: false,
  });
  const dbFlag = db === undefined ? '' : ` --db ${shellWord(resolve(db))}`;
  const options = {
    serves: surface.servedBy(patterns),
    version: packageVersion(),
    approveCommand: (id: string, answer: 'yes' | 'no') => `toolseam approve ${id} ${answer}${dbFlag}`,
    questionMs: config.approvals.timeoutMs ?? 300_000,
  };
  try {
    // A connection whose server died can never be taken up again: its questions stop waiting.
    await surface.endLeftCallSessions(runtime);
    if (port === undefined) {
      await surface.serveStdio(runtime, options);
      return 0;
    }
    const serving = await surface.serveHttp(runtime, {
      ...options,
      port,
      ...(values.host ? { host: values.host } : {}),
    });
    process.stderr.write(`toolseam mcp-serve: serving MCP at ${serving.url}\n`);
    await new Promise<void>((done) => {
      process.once('SIGINT', () => done());
      process.once('SIGTERM', () => done());
    });
    await serving.close();
    return 0;
  } finally {
    await runtime.close();
  }
};

/** The port --http names; undefined without --http. */
function portOf(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const port = Number(given.trim());
  if (given.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InputError(`--http takes a port number from 0 to 65535 (0: any free port), not "${given}".`);
  }
  return port;
}

/** A path as one shell word. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
