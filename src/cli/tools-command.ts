import { parseArgs } from 'node:util';
import { InputError } from '../core/errors.js';
import { createLogger } from '../core/logger.js';
import { DEFAULT_CONFIG_FILE, readToolsConfig, registryFromConfig } from '../tools/registry-config.js';
import { toolsPage, toolsPageJson } from '../tools/tools-page.js';
import { renderToolsPage } from '../tools/tools-page-text.js';
import type { Command } from './commands.js';

const USAGE = `usage: toolseam tools [--config FILE] [--json]

Starts every configured tool provider (MCP servers, installed apps) and shows, by group, each tool's
real and wire name, its provider and app, whether models are offered it as declared, repaired, with
arguments carried as JSON text, or not at all (and why), the description models see, and each
provider's load failures.
  --config FILE  the config to read (default: ./${DEFAULT_CONFIG_FILE}, if there is one)
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
    const first = (error as Error).message.split('. ')[0];
    throw new InputError(`${first}. Run "toolseam tools --help" for the options.`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (values.config !== undefined && values.config.trim() === '')
    throw new InputError('--config needs a file path.');
  const config =
    values.config === undefined
      ? await readToolsConfig(DEFAULT_CONFIG_FILE, { optional: true })
      : await readToolsConfig(values.config);
  // The page itself reports every failure; stderr gets only what the page cannot show.
  const logger = createLogger({ level: 'error' });
  const registry = await registryFromConfig(config, { logger });
  try {
    const page = await toolsPage(registry, { logger });
    const text = values.json ? JSON.stringify(toolsPageJson(page), null, 2) : renderToolsPage(page);
    process.stdout.write(`${text}\n`);
    return 0;
  } finally {
    await registry.close();
  }
};
