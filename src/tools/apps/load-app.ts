import { pathToFileURL } from 'node:url';
import type { JsonObject } from '../../core/json.js';
import { isPlainObject } from '../../core/json.js';
import { type Logger, silentLogger } from '../../core/logger.js';
import type { ToolContext, ToolDefinition, ToolGroup, ToolProvider, ToolResult } from '../../core/tool.js';
import { ToolDefinitionError } from '../fields/tool-definition-error.js';
import { errorText } from '../registry/failure-ledger.js';
import { toolResultOf } from '../registry/tag-tools.js';
import { DeadlineExceeded, formatMs, withDeadline } from '../registry/with-deadline.js';
import { AppLoadError, type AppManifest, readAppManifest } from './app-manifest.js';
import { type AppToolkit, appToolkit } from './app-toolkit.js';
import { noteHostedApp } from './hosted-code.js';
import { leftOutMessage, leftOutOf, sortDefinedTools } from './left-out-tools.js';

/** What an app's entry receives when it exports a function instead of its tools. */
export interface AppContext {
  readonly name: string;
  readonly folder: string;
  readonly logger: Logger;
  /** toolseam's tool boundary (field specs, defineTool, inProcessProvider), so an app needs no install of toolseam. */
  readonly toolkit: AppToolkit;
}

/** An installed app as a tool provider. */
export interface AppToolProvider extends ToolProvider {
  /** The app's manifest, or undefined when it could not be read. */
  readonly manifest: AppManifest | undefined;
  /** The app's folder. */
  readonly folder: string;
  /** Why the app could not be loaded; undefined for an app that loaded. */
  readonly loadError: AppLoadError | undefined;
  /** What the registry records as this app's listing failure: the tools it left out and why (empty when none). */
  loadProblems(): readonly string[];
}

/** Options for {@link loadApp}. */
export interface LoadAppOptions {
  readonly logger?: Logger;
  /** Time an app's entry module and its setup function get to finish (default 30,000 ms). */
  readonly loadTimeoutMs?: number;
  /** The config's secrets (name → value): a contract app's auth names one. */
  readonly secrets?: ReadonlyMap<string, string>;
}

/** The default of `LoadAppOptions.loadTimeoutMs`. */
export const DEFAULT_APP_LOAD_TIMEOUT_MS = 30_000;

/**
 * Loads the app in `folder` (its `toolseam-app.json` and entry module) as a tool provider named after the
 * app. Never throws: an app that cannot be loaded becomes a provider whose listTools fails with an
 * AppLoadError saying why, so the registry records it as that app's load failure.
 *
 * The entry exports (as `default`, as `provider`, or as the module itself) one of: a ToolProvider; tools
 * made with `defineTool`; raw tools `{tools, invoke, preflight?}` with JSON-schema `parameters` (or
 * `inputSchema`); or a function of an {@link AppContext} returning any of these.
 */
export async function loadApp(folder: string, options: LoadAppOptions = {}): Promise<AppToolProvider> {
  const logger = options.logger ?? silentLogger;
  let manifest: AppManifest;
  try {
    manifest = await readAppManifest(folder);
  } catch (error) {
    return failedApp(error as AppLoadError);
  }
  const limit = options.loadTimeoutMs ?? DEFAULT_APP_LOAD_TIMEOUT_MS;
  // Known before its code first runs: an exception it throws from a timer can be told from toolseam's own.
  noteHostedApp(manifest.folder, manifest.name);
  try {
    // A setup that never finishes must not hold up every other tool (the work itself cannot be stopped).
    if (manifest.contract !== undefined) {
      const contract = manifest.contract;
      const secrets = options.secrets ?? new Map<string, string>();
      const behaviour = await withDeadline(
        limit,
        () => contractBehaviour(manifest, contract, secrets),
        undefined,
        true,
      );
      const group: ToolGroup = { key: manifest.name, own: false, purpose: manifest.description };
      return wrapProvider(behaviour, manifest, group);
    }
    const exported = await withDeadline(limit, () => entryExport(manifest, logger), undefined, true);
    return adapt(exported, manifest, logger);
  } catch (error) {
    const reason =
      error instanceof AppLoadError
        ? error.message
        : error instanceof DeadlineExceeded
          ? `its entry module and setup did not finish within ${formatMs(limit)}; check what its setup waits for`
          : error instanceof ToolDefinitionError
            ? `its tool ${error.tool} is defined in a way that cannot work (${errorText(error)}); fix it in the entry module`
            : `its entry module failed to load: ${errorText(error)}`;
    return failedApp(
      error instanceof AppLoadError
        ? error
        : new AppLoadError(manifest.folder, manifest.name, `app "${manifest.name}": ${reason}`, {
            cause: error,
          }),
      manifest,
    );
  }
}

/** A contract app's tools, from the OpenAPI document its manifest names (the parser loaded only now). */
async function contractBehaviour(
  manifest: AppManifest,
  contract: JsonObject,
  secrets: ReadonlyMap<string, string>,
): Promise<AppBehaviour> {
  const { contractApp } = await import('./contract/contract-app.js');
  try {
    return await contractApp({ name: manifest.name, folder: manifest.folder, manifest: contract, secrets });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new AppLoadError(manifest.folder, manifest.name, `app "${manifest.name}": ${why}.`, {
      cause: error,
    });
  }
}

/** What the app's entry exports: its default, `provider` or the module, a setup function's answer when it is one. */
async function entryExport(manifest: AppManifest, logger: Logger): Promise<unknown> {
  const module = (await import(pathToFileURL(manifest.entry).href)) as Record<string, unknown>;
  const exported: unknown = module.default ?? module.provider ?? module;
  if (typeof exported !== 'function') return exported;
  const context: AppContext = { name: manifest.name, folder: manifest.folder, logger, toolkit: appToolkit };
  return await (exported as (c: AppContext) => unknown)(context);
}

function adapt(exported: unknown, manifest: AppManifest, logger: Logger): AppToolProvider {
  const fail = (what: string) =>
    new AppLoadError(manifest.folder, manifest.name, `app "${manifest.name}": ${what}`);
  if (!isPlainObject(exported)) {
    throw fail(
      'its entry exports nothing toolseam can use; export a tool provider, defined tools, or {tools, invoke}.',
    );
  }
  const group: ToolGroup = { key: manifest.name, own: false, purpose: manifest.description };
  if (typeof exported.listTools === 'function' && typeof exported.invoke === 'function') {
    const servesSome = !(exported.tools instanceof Map) || exported.tools.size > 0;
    const problems = leftOutProblems(leftOutOf(exported), servesSome, manifest, logger);
    return wrapProvider(exported as unknown as AppBehaviour, manifest, group, problems);
  }
  const tools = exported.tools;
  if (Array.isArray(tools) && typeof exported.invoke !== 'function' && tools.some(isDefinedTool)) {
    const stray = tools.findIndex((tool) => !isDefinedTool(tool));
    if (stray >= 0) {
      throw fail(
        `its tools list mixes tools made with defineTool and ${strayWords(tools[stray], stray)}; define every tool with defineTool (or export raw tools with an invoke function).`,
      );
    }
    const { usable, leftOut } = sortDefinedTools(tools);
    const problems = leftOutProblems(leftOut, usable.length > 0, manifest, logger);
    const provider = appToolkit.inProcessProvider({ name: manifest.name, group, tools: usable });
    return wrapProvider(provider, manifest, group, problems);
  }
  if (Array.isArray(tools) && tools.length === 0 && typeof exported.invoke !== 'function') {
    throw fail('its entry exports an empty tools list; export the tools it serves (made with defineTool).');
  }
  if (typeof exported.invoke !== 'function') {
    throw fail(
      'its entry exports no invoke function; raw tools need {tools, invoke} (or define them with defineTool).',
    );
  }
  if (!Array.isArray(tools) && typeof tools !== 'function') {
    throw fail('its entry exports no "tools" list (or function returning one).');
  }
  return wrapProvider(rawBehaviour(exported, manifest, group), manifest, group);
}

/**
 * The listing failure for the tools an app left out, each logged once; throws instead when the app
 * has no tool left to serve (a lone bad tool keeps the message that names it).
 */
function leftOutProblems(
  leftOut: readonly ToolDefinitionError[],
  servesSome: boolean,
  manifest: AppManifest,
  logger: Logger,
): readonly string[] {
  if (leftOut.length === 0) return [];
  if (!servesSome) {
    const [only] = leftOut;
    if (only !== undefined && leftOut.length === 1) throw only;
    throw new AppLoadError(manifest.folder, manifest.name, leftOutMessage(manifest.name, leftOut, false));
  }
  for (const error of leftOut) {
    logger.log({
      level: 'warn',
      scope: 'apps',
      message: `app "${manifest.name}" left out its tool ${error.tool}, whose definition cannot work (${error.message}); fix it in the entry module.`,
      fields: { app: manifest.name, tool: error.tool },
    });
  }
  return [leftOutMessage(manifest.name, leftOut, true)];
}

/** `tools[2] ("convert")`, naming an entry that is not a defined tool. */
function strayWords(value: unknown, index: number): string {
  const name =
    isPlainObject(value) && typeof value.name === 'string' ? ` (${JSON.stringify(value.name)})` : '';
  return `tools[${index}]${name}, which is not one`;
}

function isDefinedTool(value: unknown): boolean {
  return isPlainObject(value) && isPlainObject(value.definition) && typeof value.run === 'function';
}

type Raw = Record<string, unknown>;

/** What an app's tools do, whoever names them: the app wrapper supplies name, app and own. */
type AppBehaviour = Pick<
  ToolProvider,
  'listTools' | 'invoke' | 'preflight' | 'onToolsChanged' | 'close' | 'timeLimitMs' | 'loadProblems'
>;

/** An app written with raw JSON schemas: `{tools, invoke, preflight?}`. */
function rawBehaviour(exported: Raw, manifest: AppManifest, group: ToolGroup): AppBehaviour {
  const invoke = exported.invoke as (n: string, a: JsonObject, c: ToolContext) => unknown;
  const preflight = exported.preflight as ((n: string, a: JsonObject, c: ToolContext) => unknown) | undefined;
  const close = exported.close as (() => unknown) | undefined;
  const checks = declaredChecks();
  return {
    async listTools() {
      const listed =
        typeof exported.tools === 'function' ? await (exported.tools as () => unknown)() : exported.tools;
      if (!Array.isArray(listed)) {
        throw new AppLoadError(
          manifest.folder,
          manifest.name,
          `app "${manifest.name}": its tools function returned no list.`,
        );
      }
      const definitions = listed.map((tool) => rawDefinition(tool, group));
      checks.list(definitions);
      return definitions;
    },
    async invoke(name, args, ctx) {
      // Checked here too, whatever the approval policy: a call may come without its preflight.
      const read = await checks.read(name, args);
      if (!read.ok) return read.refusal;
      return (await invoke(name, read.args, ctx)) as ToolResult;
    },
    async preflight(name: string, args: JsonObject, ctx: ToolContext) {
      const read = await checks.read(name, args);
      if (!read.ok) return read.refusal;
      if (typeof preflight !== 'function') return undefined;
      const refusal = await preflight(name, read.args, ctx);
      return refusal === undefined || refusal === null ? undefined : toolResultOf(refusal, name, true);
    },
    ...(typeof close === 'function' ? { close: async () => void (await close()) } : {}),
  };
}

/**
 * The check of a raw tool's calls against its declared schema (seed 003's boundary: JSON text decoded,
 * key cases mapped, undeclared keys refused where the schema closes its objects, then the schema), built
 * once per tool from its last listing. Loaded on a raw app's first call, so importing toolseam loads no ajv.
 */
function declaredChecks() {
  const schemas = new Map<string, unknown>();
  const built = new Map<string, { read(args: JsonObject): { ok: boolean } }>();
  type Read = { ok: true; args: JsonObject } | { ok: false; refusal: ToolResult };
  return {
    list(definitions: readonly ToolDefinition[]): void {
      schemas.clear();
      built.clear();
      for (const d of definitions)
        if (isPlainObject(d) && isPlainObject(d.parameters)) schemas.set(d.name, d.parameters);
    },
    async read(name: string, args: JsonObject): Promise<Read> {
      const schema = schemas.get(name);
      if (!isPlainObject(schema)) return { ok: true, args };
      const { contractBoundary } = await import('./contract/contract-arguments.js');
      const { invalidArgumentsResult } = await import('../fields/define-tool.js');
      let boundary = built.get(name);
      if (boundary === undefined) {
        boundary = contractBoundary(name, schema as JsonObject);
        built.set(name, boundary);
      }
      let reading: ReturnType<ReturnType<typeof contractBoundary>['read']>;
      try {
        reading = (boundary as ReturnType<typeof contractBoundary>).read(args);
      } catch {
        // A schema ajv cannot compile is left unchecked, as before: the tool reads its own arguments.
        return { ok: true, args };
      }
      return reading.ok
        ? { ok: true, args: reading.args }
        : { ok: false, refusal: invalidArgumentsResult(name, reading.problems) };
    },
  };
}

function rawDefinition(tool: unknown, group: ToolGroup): ToolDefinition {
  if (!isPlainObject(tool)) return tool as ToolDefinition;
  const parameters = 'parameters' in tool ? tool.parameters : tool.inputSchema;
  const { inputSchema: _ignored, ...rest } = tool;
  // Its calls are read with every key case (declaredChecks), so the runtime counts those spellings as given.
  return {
    risk: 'caution',
    requiresApproval: true,
    keySpellings: true,
    group,
    ...rest,
    parameters,
  } as unknown as ToolDefinition;
}

function wrapProvider(
  provider: AppBehaviour,
  manifest: AppManifest,
  group: ToolGroup,
  problems: readonly string[] = [],
): AppToolProvider {
  const ownProblems = provider.loadProblems;
  return {
    name: manifest.name,
    app: manifest.name,
    own: false,
    manifest,
    folder: manifest.folder,
    loadError: undefined,
    loadProblems: () => [
      ...problems,
      // an app's own provider is hosted code: what it declares is not taken on trust
      ...(typeof ownProblems === 'function' ? ownProblems.call(provider) : []),
    ],
    // A malformed entry (null, a string) goes through as it is: tagging leaves out only that entry.
    listTools: async (signal) =>
      (await provider.listTools(signal)).map((t) => (!isPlainObject(t) || t.group ? t : { ...t, group })),
    invoke: async (name, args, ctx) => toolResultOf(await provider.invoke(name, args, ctx), name),
    ...(provider.preflight ? { preflight: provider.preflight.bind(provider) } : {}),
    ...(provider.onToolsChanged ? { onToolsChanged: provider.onToolsChanged.bind(provider) } : {}),
    ...(provider.close ? { close: provider.close.bind(provider) } : {}),
    ...(typeof provider.timeLimitMs === 'function'
      ? { timeLimitMs: (name, args) => provider.timeLimitMs?.(name, args) }
      : {}),
  };
}

function failedApp(error: AppLoadError, manifest?: AppManifest): AppToolProvider {
  return {
    name: error.app,
    app: error.app,
    own: false,
    manifest,
    folder: error.folder,
    loadError: error,
    loadProblems: () => [],
    async listTools(): Promise<readonly ToolDefinition[]> {
      throw error;
    },
    async invoke(name): Promise<ToolResult> {
      return {
        content: `Error: ${name} was not run: ${error.message}`,
        isError: true,
        notRun: 'refused_by_tool',
      };
    },
  };
}
