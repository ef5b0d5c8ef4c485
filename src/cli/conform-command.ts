import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { InputError } from '../core/errors.js';
import { isPlainObject } from '../core/json.js';
import { parseUserJson } from '../core/read-json-file.js';
import type { ToolDefinition } from '../core/tool.js';
import {
  describeIssue,
  type ExcludedTool,
  nameCensus,
  type OfferedTool,
  offerTools,
  type SchemaIssue,
} from '../seam/index.js';
import type { Command } from './command.js';
import { parseArgsSaid } from './parse-args-said.js';
import { visible, visibleLines } from './visible-text.js';

/** The FILE that means standard input. */
const STDIN = '-';

const USAGE = `usage: toolseam conform FILE [--json] [--server NAME] [--provider NAME] [--app NAME]

Reads a tool list and prints what every model provider would be sent for it: each offered tool's
wire name, description and portable parameters with what was repaired or carried as JSON text, and
each tool left out with the reason.
FILE is an MCP tools/list result {"tools": [...]}, a corpus file {"server", "tools": [...]}, or an
array of {name, description, inputSchema | parameters}; a FILE ending in .gz is gunzipped first,
and FILE - reads the list from standard input.
  --json      print {"offered": [...], "excluded": [...]} instead of the report
  --server    name the tools as the runtime names an MCP server's tools: mcp/NAME/<tool>
              (a corpus file's "server" does this by default: @scope/pkg becomes scope__pkg)
  --provider  the provider named in log lines (default: mcp/<server>, else the file name)
  --app       the app named in log lines (default: the provider)`;

/** How a tool list names its tools and who offers them. */
export interface ToolListOrigin {
  readonly server?: string | undefined;
  readonly provider: string;
  readonly app: string;
}

/** `toolseam conform FILE`: shows what every provider would be sent for a tool list. */
export const conformCommand: Command = async (argv) => {
  const opts = parseConformArgs(argv);
  if (opts === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const fromStdin = opts.file === STDIN;
  const source = fromStdin ? 'standard input' : opts.file;
  const document = readJson(opts.file, source);
  const server = opts.server ?? corpusServer(document);
  const named = fromStdin ? 'stdin' : basename(opts.file);
  const provider = opts.provider ?? (server === undefined ? named : `mcp/${server}`);
  const origin: ToolListOrigin = { server, provider, app: opts.app ?? provider };
  const definitions = toolDefinitionsFrom(document, origin, source);
  const offer = offerTools(definitions, { provider: origin.provider, app: origin.app });
  const census = nameCensus(offer.offered);
  const excluded = [...offer.excluded, ...census.excluded];
  if (opts.json) {
    process.stdout.write(`${visible(JSON.stringify(jsonReport(census.offered, excluded)))}\n`);
  } else {
    process.stdout.write(
      visibleLines(textReport(source, origin, definitions.length, census.offered, excluded)),
    );
  }
  return 0;
};

interface ConformArgs {
  file: string;
  json: boolean;
  server?: string;
  provider?: string;
  app?: string;
}

function parseConformArgs(argv: string[]): ConformArgs | 'help' {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new InputError(`${parseArgsSaid(error)} Run "toolseam conform --help" for the options.`);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length !== 1) {
    throw new InputError('give exactly one tool list file, e.g. "toolseam conform examples/mcp-tools.json".');
  }
  const out: ConformArgs = { file: positionals[0] as string, json: values.json === true };
  for (const key of ['server', 'provider', 'app'] as const) {
    const value = values[key];
    if (value === undefined) continue;
    if (value.trim() === '') throw new InputError(`--${key} needs a non-empty name.`);
    out[key] = value;
  }
  return out;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      server: { type: 'string' },
      provider: { type: 'string' },
      app: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** The JSON in `file` (standard input for `-`), named `source` in what goes wrong. */
function readJson(file: string, source: string): unknown {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file === STDIN ? 0 : file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new InputError(`cannot read ${source}: ${why}.`, file);
  }
  if (file === STDIN && bytes.length === 0) {
    throw new InputError('standard input is empty: pipe a tool list into it, or give a file.', file);
  }
  let text: string;
  try {
    // A .gz file (a corpus or dataset as stored) is read as the JSON it compresses.
    text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (error) {
    throw new InputError(`${file} ends in .gz but is not gzip data (${(error as Error).message}).`, file);
  }
  const parsed = parseUserJson(text);
  if (!parsed.ok) throw new InputError(`${source} is not valid JSON (${parsed.problem}).`, file);
  return parsed.data;
}

/** A corpus file's server as the corpus names its files: `@scope/pkg` → `scope__pkg`. */
function corpusServer(document: unknown): string | undefined {
  if (!isPlainObject(document) || typeof document.server !== 'string' || document.server.trim() === '') {
    return undefined;
  }
  return document.server.replace(/^@/, '').replaceAll('/', '__');
}

/**
 * The tool definitions in a tool list (MCP tools/list result, corpus file or bare array). With a
 * server, real names are `mcp/<server>/<tool>` as the runtime names an MCP server's tools. A tool
 * without a name keeps an empty one (the seam leaves it out and says so).
 */
export function toolDefinitionsFrom(
  document: unknown,
  origin: ToolListOrigin,
  file: string,
): ToolDefinition[] {
  const list = Array.isArray(document) ? document : isPlainObject(document) ? document.tools : undefined;
  if (!Array.isArray(list)) {
    throw new InputError(
      `${file} is not a tool list: expected {"tools": [...]}, a corpus file {"server", "tools": [...]}, or an array of tools.`,
      file,
    );
  }
  return list.map((entry, i) => {
    if (!isPlainObject(entry)) throw new InputError(`${file}: tools[${i}] is not an object.`, file);
    const raw = entry.name;
    if (raw !== undefined && raw !== null && typeof raw !== 'string') {
      throw new InputError(`${file}: tools[${i}].name must be a string, not ${JSON.stringify(raw)}.`, file);
    }
    const bare = typeof raw === 'string' ? raw : '';
    const name = origin.server === undefined || bare.trim() === '' ? bare : `mcp/${origin.server}/${bare}`;
    return {
      name,
      description: typeof entry.description === 'string' ? entry.description : '',
      parameters: entry.inputSchema ?? entry.parameters,
      risk: 'caution',
      requiresApproval: true,
      provider: origin.provider,
      app: origin.app,
    } satisfies ToolDefinition;
  });
}

function issueJson(issue: SchemaIssue): { rule: string; path: string; detail: string } {
  const detail = issue.fix === undefined ? issue.detail : `${issue.detail} — ${issue.fix}`;
  return { rule: issue.rule, path: issue.path, detail };
}

/** The `--json` shape: what each provider is sent, and what is left out. */
export function jsonReport(offered: readonly OfferedTool[], excluded: readonly ExcludedTool[]) {
  return {
    offered: offered.map((t) => ({
      name: t.name,
      wireName: t.wireName,
      description: t.wireDescription,
      parameters: t.parameters,
      repairs: t.repairs.map(issueJson),
      lifted: t.lifted.map((l) => l.path),
    })),
    excluded: excluded.map((t) => ({ name: t.name, reason: t.reason, issues: t.issues.map(issueJson) })),
  };
}

const VERDICT_WORDS = {
  portable: 'as declared',
  repaired: 'repaired',
  lifted: 'with JSON-text arguments',
} as const;
const REASON_WORDS = {
  no_name: 'it has no name',
  no_portable_form: 'no portable schema can carry it',
  name_collision: 'its wire name is taken',
  shadows_runtime_tool: "it would shadow the runtime's own tool",
} as const;
const SHOWN = 8;

function textReport(
  file: string,
  origin: ToolListOrigin,
  total: number,
  offered: readonly OfferedTool[],
  excluded: readonly ExcludedTool[],
): string {
  const count = (v: keyof typeof VERDICT_WORDS) => offered.filter((t) => t.verdict === v).length;
  const lines = [
    `${file}: ${total} tool${total === 1 ? '' : 's'} from provider ${JSON.stringify(origin.provider)}` +
      (origin.app === origin.provider ? '' : ` (app ${JSON.stringify(origin.app)})`),
    `  offered ${offered.length}: ${count('portable')} as declared, ${count('repaired')} repaired, ` +
      `${count('lifted')} with arguments as JSON text; left out ${excluded.length}`,
  ];
  if (offered.length > 0) lines.push('', 'Offered');
  for (const tool of offered) {
    const wire = tool.wireName === tool.name ? '' : ` → ${tool.wireName}`;
    const described = tool.descriptionDerived ? ', description written by the seam' : '';
    lines.push(`  ${tool.name}${wire}  (${VERDICT_WORDS[tool.verdict]}${described})`);
    if (tool.lifted.length > 0)
      lines.push(`      as JSON text: ${tool.lifted.map((l) => l.path).join(', ')}`);
    lines.push(...issueLines(tool.repairs));
  }
  if (excluded.length > 0) lines.push('', 'Left out');
  for (const tool of excluded) {
    lines.push(`  ${tool.name === '' ? '(no name)' : tool.name}  (${REASON_WORDS[tool.reason]})`);
    lines.push(...issueLines(tool.issues));
  }
  return `${lines.join('\n')}\n`;
}

function issueLines(issues: readonly SchemaIssue[]): string[] {
  const lines = issues.slice(0, SHOWN).map((i) => `      - ${describeIssue(i)}`);
  if (issues.length > SHOWN) lines.push(`      - and ${issues.length - SHOWN} more`);
  return lines;
}
