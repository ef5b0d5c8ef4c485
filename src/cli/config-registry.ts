import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolseamConfig } from '../config.js';
import { createLogger, type Logger } from '../core/logger.js';
import { openSessionStore } from '../store/index.js';
import { builtinProviders } from '../tools/builtin/builtin-providers.js';
import type { ToolRegistry } from '../tools/registry/tool-registry.js';
import { registryFromConfig } from '../tools/registry-config.js';

/**
 * Runs `work` on a registry with every tool provider a chat would have from `config` (the platform's
 * own tools, MCP servers, apps), then closes it. Nothing runs a tool, so the memory and task tools get a
 * scratch store, never the person's.
 */
export async function withConfigRegistry<T>(
  config: ToolseamConfig,
  work: (registry: ToolRegistry, logger: Logger) => Promise<T>,
): Promise<T> {
  const scratch = mkdtempSync(join(tmpdir(), 'toolseam-tools-'));
  const store = openSessionStore({ path: join(scratch, 'store.db') });
  // The page itself reports every failure; stderr gets only what the page cannot show.
  const logger = createLogger({ level: 'error' });
  try {
    const providers = builtinProviders({
      workspace: config.workspace.length > 0 ? config.workspace : [process.cwd()],
      memory: store,
      tasks: store,
      secrets: config.secrets,
      configPaths: config.file ? [config.file] : [],
      shell: config.shell,
    });
    const registry = await registryFromConfig(config.tools, { logger, providers });
    try {
      return await work(registry, logger);
    } finally {
      await registry.close();
    }
  } finally {
    await store.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}
