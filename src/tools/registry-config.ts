import { dirname, resolve } from 'node:path';
import { InputError } from '../core/errors.js';
import { isPlainObject } from '../core/json.js';
import { type Logger, silentLogger } from '../core/logger.js';
import { readJsonFile } from '../core/read-json-file.js';
import type { ToolProvider } from '../core/tool.js';
import { loadApp } from './apps/load-app.js';
import {
  type McpServerConfig,
  type McpTimeouts,
  parseMcpServers,
  parseMcpTimeouts,
} from './mcp/mcp-config.js';
import { createMcpProvider, type McpProviderOptions } from './mcp/mcp-provider.js';
import type { CallTimeouts } from './registry/call-deadline.js';
import { createToolRegistry, type ToolRegistry } from './registry/tool-registry.js';

/** The config file toolseam reads when none is named. */
export const DEFAULT_CONFIG_FILE = 'toolseam.json';

/** The tool-hosting part of `toolseam.json`: MCP servers, installed apps, tools switched off, MCP timeouts. */
export interface ToolsConfig {
  /** The file it was read from, when it came from one. */
  readonly file?: string;
  readonly mcpServers: readonly McpServerConfig[];
  /** Absolute folders of the installed apps. */
  readonly apps: readonly string[];
  /** Real names of tools switched off. */
  readonly disabledTools: readonly string[];
  /** Host-wide MCP timeouts; a server's own `timeouts` win. */
  readonly mcpTimeouts: Partial<McpTimeouts>;
}

/** An empty tools config: nothing configured. */
export const EMPTY_TOOLS_CONFIG: ToolsConfig = {
  mcpServers: [],
  apps: [],
  disabledTools: [],
  mcpTimeouts: {},
};

/**
 * Reads the tool-hosting keys of a `toolseam.json` (`mcpServers`, `apps`, `disabledTools`, `mcpTimeouts`);
 * other keys belong to other parts and are left alone. With `optional`, a missing file is an empty config.
 */
export async function readToolsConfig(
  file: string,
  options: { optional?: boolean } = {},
): Promise<ToolsConfig> {
  const read = readJsonFile(file, 'config file', options);
  if (!read) return EMPTY_TOOLS_CONFIG;
  return {
    ...parseToolsConfig(read.data, { source: read.path, baseDir: dirname(read.path) }),
    file: read.path,
  };
}

/** Checks the tool-hosting keys of an already-parsed config; relative app folders are read from `baseDir`. */
export function parseToolsConfig(
  data: unknown,
  options: { source?: string; baseDir?: string } = {},
): ToolsConfig {
  const where = options.source ?? 'the config';
  if (!isPlainObject(data)) throw new InputError(`${where} must hold a JSON object.`, options.source);
  const baseDir = options.baseDir ?? process.cwd();
  return {
    mcpServers: parseMcpServers(data.mcpServers, { ...options, baseDir }),
    apps: readApps(data.apps, where, baseDir),
    disabledTools: readNames(data.disabledTools, where),
    mcpTimeouts: parseMcpTimeouts(data.mcpTimeouts, options.source),
  };
}

function readApps(value: unknown, where: string, baseDir: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new InputError(`"apps" in ${where} must be a list of app folders, e.g. ["./apps/notes"].`);
  }
  const folders: string[] = [];
  value.forEach((item, i) => {
    const entry = typeof item === 'string' ? { path: item } : item;
    if (!isPlainObject(entry) || typeof entry.path !== 'string' || entry.path.trim() === '') {
      throw new InputError(
        `"apps[${i}]" in ${where} must be a folder path or {"path": "…", "disabled": false}.`,
      );
    }
    if (entry.disabled === true) return;
    // resolve() also drops a trailing slash, so "./a" and "a/" name one folder.
    const folder = resolve(baseDir, entry.path);
    const first = folders.indexOf(folder);
    if (first !== -1) {
      throw new InputError(
        `"apps[${i}]" in ${where} lists ${folder} again (an earlier entry already installs it); list each app folder once.`,
      );
    }
    folders.push(folder);
  });
  return folders;
}

function readNames(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new InputError(`"disabledTools" in ${where} must be a list of tool names.`);
  }
  return value as string[];
}

/** Options for {@link registryFromConfig}. */
export interface RegistryFromConfigOptions {
  readonly logger?: Logger;
  /** Providers registered first (e.g. the platform's built-ins). */
  readonly providers?: readonly ToolProvider[];
  /** Passed to every MCP provider (timeouts from the config win over these). */
  readonly mcp?: McpProviderOptions;
  readonly listTimeoutMs?: number;
  /** Time each app gets to load (see `LoadAppOptions.loadTimeoutMs`). */
  readonly appLoadTimeoutMs?: number;
  /** Deadlines of calls whose tool declares no limit of its own (see `ToolRegistryOptions.callTimeouts`). */
  readonly callTimeouts?: CallTimeouts;
  /** The config's secrets, for contract apps' auth (see `LoadAppOptions.secrets`). */
  readonly secrets?: ReadonlyMap<string, string>;
}

/** A registry holding `providers`, then every configured MCP server, then every configured app. */
export async function registryFromConfig(
  config: ToolsConfig,
  options: RegistryFromConfigOptions = {},
): Promise<ToolRegistry> {
  const logger = options.logger ?? silentLogger;
  const registry = createToolRegistry({
    logger,
    switchedOff: config.disabledTools,
    ...(options.listTimeoutMs === undefined ? {} : { listTimeoutMs: options.listTimeoutMs }),
    ...(options.callTimeouts === undefined ? {} : { callTimeouts: options.callTimeouts }),
  });
  for (const provider of options.providers ?? []) registry.register(provider);
  const timeouts = { ...options.mcp?.timeouts, ...config.mcpTimeouts };
  for (const server of config.mcpServers) {
    registry.register(createMcpProvider(server, { ...options.mcp, logger, timeouts }));
  }
  const load = {
    logger,
    ...(options.appLoadTimeoutMs === undefined ? {} : { loadTimeoutMs: options.appLoadTimeoutMs }),
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
  };
  const apps = await Promise.all(config.apps.map((folder) => loadApp(folder, load)));
  // Apps that loaded take their names first: one that failed is only named after its folder (or
  // its manifest), and must not keep a working app of that name out.
  const loadedFirst = [...apps.filter((a) => !a.loadError), ...apps.filter((a) => a.loadError)];
  for (const app of loadedFirst) {
    if (registry.providers().some((p) => p.provider.name === app.name)) {
      if (app.loadError) {
        // Its own failure says what to fix; the name it would have taken is beside the point.
        registry.recordFailure(app.folder, 'list', app.loadError.message, app.name);
        continue;
      }
      const message = `another provider is already named "${app.name}", so the app in ${app.folder} was not loaded; rename one of them.`;
      registry.recordFailure(app.folder, 'duplicate', message, app.name);
      await app.close?.();
      continue;
    }
    registry.register(app, { purpose: app.manifest?.description ?? '' });
  }
  return registry;
}
