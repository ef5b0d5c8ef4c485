import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ToolseamConfig } from '../config.js';
import { InputError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';
import { openSessionStore } from '../store/index.js';
import { builtinProviders } from '../tools/builtin/builtin-providers.js';
import { registryFromConfig } from '../tools/registry-config.js';
import { toolsPage, toolsPageJson } from '../tools/tools-page.js';
import { renderToolsPage } from '../tools/tools-page-text.js';
import type { Command } from './commands.js';
import { configFromFlags } from './config-flags.js';
import { parseArgsSaid } from './parse-args-said.js';
import { visibleLines } from './visible-text.js';

const USAGE = `usage: toolseam tools [--config FILE] [--json]

Starts every tool provider a chat would have (the platform's own tools, the configured MCP servers and
installed apps) and shows, by group: each tool's real and wire name, its provider and app, whether
models are offered it as declared, repaired, with arguments carried as JSON text, or not at all (and
why), the description models see, and each provider's load failures.
  --config FILE  the config to read (default: ./toolseam.json, if there is one)
  --json         print {"tools": [...], "failures": [...]} instead of the page`;

/** `toolseam tools`: the Tools page. */
export const toolsCommand: Command = async (argv) => {
  let values: { config?: string | undefined; json?: boolean | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        json: { type: 'boolean' },
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
  // The page lists tools and runs none, so the memory and task tools get a scratch store, not the user's.
  const scratch = mkdtempSync(join(tmpdir(), 'toolseam-tools-'));
  const store = openSessionStore({ path: join(scratch, 'store.db') });
  // The page itself reports every failure; stderr gets only what the page cannot show.
  const logger = createLogger({ level: 'error' });
  try {
    const registry = await registryFromConfig(config.tools, { logger, providers: builtins(config, store) });
    try {
      const page = await toolsPage(registry, { logger });
      const text = values.json ? JSON.stringify(toolsPageJson(page), null, 2) : renderToolsPage(page);
      process.stdout.write(`${visibleLines(text)}\n`);
      return 0;
    } finally {
      await registry.close();
    }
  } finally {
    store.close();
    rmSync(scratch, { recursive: true, force: true });
  }
};

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
