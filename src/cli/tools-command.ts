import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ToolseamConfig } from '../config.js';
import { InputError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';
import type { QuarantineRecord, SessionStore } from '../core/session-store.js';
import { SUBAGENT_RUN_DEFINITION } from '../runtime/subagents/index.js';
import { denyRuleFor } from '../runtime/surface/tool-access.js';
import { toolNameEntries, UnmatchedEntries } from '../runtime/surface/unmatched-entries.js';
import { openSessionStore } from '../store/index.js';
import { nearMiss } from '../tools/arguments/near-miss.js';
import { builtinProviders } from '../tools/builtin/builtin-providers.js';
import type { LoadFailure } from '../tools/registry/failure-ledger.js';
import { type ToolsPage, toolsPage, toolsPageJson } from '../tools/registry/tools-page.js';
import { renderToolsPage } from '../tools/registry/tools-page-text.js';
import { registryFromConfig } from '../tools/registry-config.js';
import type { Command } from './command.js';
import { configFromFlags, existingDatabaseFrom, noDatabaseYet } from './config-flags.js';
import { parseArgsSaid } from './parse-args-said.js';
import { liftedLines, quarantineSection } from './quarantine-text.js';
import { visible, visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam tools [--config FILE] [--db FILE] [--json] [--on NAME]...

Starts every tool provider a chat would have (the platform's own tools, the configured MCP servers and
installed apps) and shows, by group: each tool's real and wire name, its provider and app, whether
models are offered it as declared, repaired, with arguments carried as JSON text, or not at all (and
why), the description models see, each provider's load failures, and the tools quarantined because a
model provider refused their definition (for that provider and model, with what it said).
  --config FILE  the config to read (default: ./toolseam.json, if there is one)
  --db FILE      the session database whose quarantines to show or lift (default as for \`toolseam
                 sessions\`; none is created)
  --json         print {"tools": [...], "failures": [...], "quarantined": [...]} instead of the page
  --on NAME      lift the quarantine of tool NAME (on every model it is quarantined for), so the next
                 turn offers it again; repeat for several tools`;

/** The values of the tools command's flags. */
interface ToolsFlags {
  config?: string | undefined;
  db?: string | undefined;
  json?: boolean | undefined;
  on?: string[] | undefined;
  help?: boolean | undefined;
}

/** `toolseam tools`: the Tools page, or (`--on NAME`) lifting a tool's quarantine. */
export const toolsCommand: Command = async (argv) => {
  let values: ToolsFlags;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        db: { type: 'string' },
        json: { type: 'boolean' },
        on: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    throw new InputError(`${parseArgsSaid(error)} Run "toolseam tools --help" for the options.`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.on !== undefined) return liftQuarantines(values, values.on);
  const config = configFromFlags({ config: values.config });
  const quarantined = (await withStore(values, (store) => store.listQuarantined())) ?? [];
  // The page lists tools and runs none, so the memory and task tools get a scratch store, not the user's.
  const scratch = mkdtempSync(join(tmpdir(), 'toolseam-tools-'));
  const store = openSessionStore({ path: join(scratch, 'store.db') });
  // The page itself reports every failure; stderr gets only what the page cannot show.
  const logger = createLogger({ level: 'error' });
  try {
    const registry = await registryFromConfig(config.tools, { logger, providers: builtins(config, store) });
    try {
      const deniedBy = (name: string) => denyRuleFor(config.denyList, name);
      const page = await toolsPage(registry, { logger, deniedBy });
      warnUnmatched(config, page, registry.failures());
      const text = values.json
        ? JSON.stringify({ ...toolsPageJson(page), quarantined }, null, 2)
        : `${renderToolsPage(page)}\n\n${quarantineSection(quarantined)}`;
      process.stdout.write(`${visibleLines(text)}\n`);
      return 0;
    } finally {
      await registry.close();
    }
  } finally {
    await store.close();
    rmSync(scratch, { recursive: true, force: true });
  }
};

/** Writes to stderr, as a chat would, each deny-list or `disabledTools` entry that matches none of the page's tools. */
function warnUnmatched(config: ToolseamConfig, page: ToolsPage, failures: readonly LoadFailure[]): void {
  const entries = toolNameEntries(config.denyList, config.tools.disabledTools);
  // subagent_run is the runtime's own, so not on the page, and a chat offers it.
  const names = [...page.rows.map((row) => row.name), SUBAGENT_RUN_DEFINITION.name];
  const unlisted = failures.filter((f) => f.kind === 'list').map((f) => f.provider);
  for (const message of new UnmatchedEntries(entries).check(names, unlisted)) {
    process.stderr.write(`warn config: ${visible(message)}\n`);
  }
}

/** Runs `work` on the session database the flags name, or returns undefined when none exists yet (none is made). */
async function withStore<T>(
  flags: ToolsFlags,
  work: (store: SessionStore) => Promise<T>,
): Promise<T | undefined> {
  const db = existingDatabaseFrom(flags);
  if (!db.exists) return undefined;
  const store = openSessionStore({ path: db.path });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** `--on NAME…`: lifts each tool's quarantine; a name nothing quarantines is refused before any is lifted. */
async function liftQuarantines(flags: ToolsFlags, names: readonly string[]): Promise<number> {
  const lifted = await withStore(flags, async (store) => {
    const quarantined = [...new Set((await store.listQuarantined()).map((q) => q.tool))];
    for (const name of names) {
      if (quarantined.includes(name)) continue;
      const meant = nearMiss(name, quarantined);
      const listed =
        quarantined.length === 0 ? 'no tool is' : `the quarantined tools are ${quarantined.join(', ')}`;
      throw new InputError(
        `${name} is not quarantined;${meant ? ` did you mean ${meant}?` : ''} ${listed} (\`toolseam tools\` shows them).`,
      );
    }
    const lifted: QuarantineRecord[] = [];
    for (const tool of names) lifted.push(...(await store.liftQuarantine({ tool })));
    return lifted;
  });
  if (lifted === undefined) {
    throw new InputError(`nothing is quarantined: ${noDatabaseYet(existingDatabaseFrom(flags))}.`);
  }
  process.stdout.write(`${liftedLines(lifted)}\n`);
  const again =
    lifted.length > 1
      ? '(the next turn on those models offers them; one the provider refuses again is left out again)'
      : '(the next turn on that model offers it; if the provider refuses it again, it is left out again)';
  process.stdout.write(`${again}\n`);
  return 0;
}

/** The platform's own providers, built as a chat builds them from the same config. */
function builtins(config: ToolseamConfig, store: ReturnType<typeof openSessionStore>) {
  return builtinProviders({
    workspace: config.workspace.length > 0 ? config.workspace : [process.cwd()],
    memory: store,
    tasks: store,
    secrets: config.secrets,
    configPaths: config.file ? [config.file] : [],
    shell: config.shell,
  });
}
