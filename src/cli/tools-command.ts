import { parseArgs } from 'node:util';
import type { ToolseamConfig } from '../config.js';
import { InputError } from '../core/errors.js';
import type { QuarantineRecord, ToolSwitchRecord } from '../core/session-store.js';
import { SUBAGENT_RUN_DEFINITION } from '../runtime/subagents/index.js';
import { denyRuleFor } from '../runtime/surface/tool-access.js';
import { toolNameEntries, UnmatchedEntries } from '../runtime/surface/unmatched-entries.js';
import { StoredSwitches } from '../runtime/tool-switches/stored-switches.js';
import { openStore } from '../store/index.js';
import type { LoadFailure } from '../tools/registry/failure-ledger.js';
import { type ToolsPage, toolsPage, toolsPageJson } from '../tools/registry/tools-page.js';
import { renderToolsPage } from '../tools/registry/tools-page-text.js';
import type { Command } from './command.js';
import { configFromFlags, existingDatabaseFrom } from './config-flags.js';
import { withConfigRegistry } from './config-registry.js';
import { parseArgsSaid } from './parse-args-said.js';
import { quarantineSection } from './quarantine-text.js';
import { switchesSection, switchTools } from './tool-switch-command.js';
import { visible, visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam tools [--config FILE] [--db FILE|URL] [--json] [--off NAME]... [--on NAME]...

Starts every tool provider a chat would have (the platform's own tools, the configured MCP servers and
installed apps) and shows, by group: each tool's real and wire name, its provider and app, whether
models are offered it as declared, repaired, with arguments carried as JSON text, or not at all (and
why), the description models see, each provider's load failures, the tools someone switched off, and
the tools quarantined because a model provider refused their definition (for that provider and model,
with what it said).
  --config FILE  the config to read (default: ./toolseam.json, if there is one)
  --db FILE|URL  the session database (a SQLite file, or a postgres:// URL) whose switches and
                 quarantines to show or change (default as for \`toolseam sessions\`; showing the
                 page creates none)
  --json         print {"tools": [...], "failures": [...], "quarantined": [...], "switches": [...]}
                 instead of the page
  --off NAME     switch tool NAME (its real name) off: stored in the session database, so every toolseam
                 on it (a chat, \`toolseam serve\`) goes without it from its next turn; repeat for several
  --on NAME      switch tool NAME back on, and lift its quarantine (on every model it is quarantined
                 for), so the next turn may offer it again; repeat for several
A tool the config switches off ("disabledTools") or refuses ("denyList") stays as the config says: change
the config for those.`;

/** The values of the tools command's flags. */
interface ToolsFlags {
  config?: string | undefined;
  db?: string | undefined;
  json?: boolean | undefined;
  on?: string[] | undefined;
  off?: string[] | undefined;
  help?: boolean | undefined;
}

/** `toolseam tools`: the Tools page, or (`--off NAME`, `--on NAME`) storing tool switches. */
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
        off: { type: 'string', multiple: true },
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
  const config = configFromFlags({ config: values.config });
  if (values.on !== undefined || values.off !== undefined) return switchTools(values, config);
  const db = existingDatabaseFrom(values);
  // The page reads the person's database when there is one, and never makes one.
  const store = db.exists ? await openStore(db.path) : undefined;
  try {
    const quarantined = (await store?.listQuarantined()) ?? [];
    const stored = (await store?.listToolSwitches()) ?? [];
    return await withConfigRegistry(config, async (registry, logger) => {
      const switches = new StoredSwitches(
        { listToolSwitches: async () => stored },
        registry,
        config.denyList,
      );
      await switches.sync();
      const deniedBy = (name: string) => denyRuleFor(config.denyList, name);
      const page = await toolsPage(registry, { logger, deniedBy });
      warnUnmatched(config, page, registry.failures());
      process.stdout.write(`${visibleLines(pageText(page, quarantined, stored, switches, values.json))}\n`);
      return 0;
    });
  } finally {
    await store?.close();
  }
};

/** The page as text, or as JSON (each tool with its switch state and the config key that fixes it, if any). */
function pageText(
  page: ToolsPage,
  quarantined: readonly QuarantineRecord[],
  stored: readonly ToolSwitchRecord[],
  switches: StoredSwitches,
  json: boolean | undefined,
): string {
  if (json) {
    const base = toolsPageJson(page);
    const tools = base.tools.map((tool, i) => {
      const fixed = switches.fixedBy(tool.name);
      return { ...tool, on: fixed === null && page.rows[i]?.switchedOff !== true, fixed };
    });
    return JSON.stringify({ ...base, tools, quarantined, switches: stored }, null, 2);
  }
  const fixed = (tool: string) => switches.fixedBy(tool);
  return `${renderToolsPage(page)}\n\n${switchesSection(stored, fixed)}\n\n${quarantineSection(quarantined)}`;
}

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
