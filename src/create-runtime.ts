import type { ToolseamConfig } from './config.js';
import { configCredentials } from './config-credentials.js';
import { type Logger, silentLogger } from './core/logger.js';
import type { ModelAdapter } from './core/model.js';
import type { SessionStore } from './core/session-store.js';
import type { Signals } from './core/signals.js';
import type { ToolProvider } from './core/tool.js';
import { isVectorCache } from './core/vector-cache.js';
import { automationDesk } from './create-automations.js';
import { configuredSelector } from './embedding-source.js';
import { createModelAdapter, type ProviderConfig, resolveProviderConfig } from './providers/index.js';
import type { ToolSelector } from './retrieval/index.js';
import { globMatch } from './runtime/glob-match.js';
import { Runtime } from './runtime/runtime.js';
import type { ApprovalOptions, HostedOptions } from './runtime/runtime-options.js';
import { deferredSubagentRun } from './runtime/subagents/deferred-subagent-run.js';
import { defaultDatabasePath, isPostgresUrl, openStore } from './store/index.js';
import type { AskUser } from './tools/builtin/ask-user-tool.js';
import { builtinProviders } from './tools/builtin/builtin-providers.js';
import { shellSandboxSoon } from './tools/builtin/sandbox-probe.js';
import type { ShellOptions } from './tools/builtin/shell-options.js';
import { createNotifier, type Notifier } from './tools/notify/notifier.js';
import { notifyCredentials } from './tools/notify/notify-config.js';
import { EMPTY_TOOLS_CONFIG, registryFromConfig } from './tools/registry-config.js';

/** What a runtime is built from; everything but the model has a default. */
export interface CreateRuntimeOptions {
  /** A model adapter, or the provider config to build one. */
  readonly model: ModelAdapter | ProviderConfig;
  /** The checked `toolseam.json` (MCP servers, apps, policies); defaults to none. */
  readonly config?: ToolseamConfig;
  /** More tool providers of the host's own, registered after the built-ins. */
  readonly tools?: readonly ToolProvider[];
  /**
   * The store, or the database to open: a SQLite file or a `postgres://` URL (default: the config's `db`,
   * else a SQLite file in the user's data folder).
   */
  readonly store?: SessionStore | string;
  /** Offer the platform's own tools (files, shell, memory, tasks, ask_user); default true. */
  readonly builtins?: boolean;
  /** How `ask_user` reaches the person; without it, `ask_user` refuses (an unattended run). */
  readonly askUser?: AskUser;
  /** Overrides the config's approval settings. */
  readonly approvals?: ApprovalOptions;
  readonly logger?: Logger;
  /** Context window in tokens, to bound the schemas each turn sends (overrides the config's). */
  readonly contextWindow?: number;
  /** Offer `subagent_run` (batches of leaves run as child sessions); default true. */
  readonly subagents?: boolean;
  /** Overrides the config's "shell" settings (a host may also name its own bubblewrap program). */
  readonly shell?: ShellOptions;
  /** How each turn chooses the tools it offers (default: by words; see `RuntimeOptions.selector`). */
  readonly selector?: ToolSelector;
  /**
   * The owner channel behind `notify` / `notify_attachment` (default: one built from the config's "notify"
   * on this runtime's store, whose outbox deliverer starts with the runtime and stops when it closes).
   */
  readonly notifier?: Notifier;
  /** Wake-ups between the host's processes (default: within this process; `RuntimeOptions.signals`). */
  readonly signals?: Signals;
  /** Offer the automation tools (automation_create …); default: when the config has an "automations" section. */
  readonly automations?: boolean;
  /** Hosted mode (a job queue, workers): see `RuntimeOptions.hosted`. */
  readonly hosted?: HostedOptions;
  /** How often the turns this runtime drives are marked alive (default 15 s; workers beat faster). */
  readonly heartbeatMs?: number;
}

function isAdapter(model: ModelAdapter | ProviderConfig): model is ModelAdapter {
  return typeof (model as ModelAdapter).stream === 'function';
}

/**
 * The config's context window, when its "model" is the model the runtime talks to: names no provider or
 * this one (the window of a model set aside for another provider would bound the wrong model's schemas).
 */
function configuredWindow(config: ToolseamConfig | undefined, provider: string): number | undefined {
  const fromFile = config?.model;
  if (fromFile?.provider !== undefined && fromFile.provider !== provider) return undefined;
  return fromFile?.contextWindow;
}

/** Builds a runtime: model, store, the platform's tools, MCP servers and apps from the config. */
export async function createRuntime(options: CreateRuntimeOptions): Promise<Runtime> {
  const config = options.config;
  const logger = options.logger ?? silentLogger;
  const shell = { ...config?.shell, ...options.shell };
  // Whether `bash` is offered waits on bubblewrap starting once: it runs while the store opens.
  const sandbox =
    options.builtins === false || shell.sandbox === 'off' ? undefined : shellSandboxSoon(shell.bwrap);
  // Awaited below; a step before that which throws leaves a failed probe nobody waits for.
  sandbox?.catch(() => undefined);
  const model = isAdapter(options.model) ? options.model : createModelAdapter(options.model);
  // Stored with each turn, so a resumed turn is sent where it started (and nowhere else).
  const modelBaseURL = isAdapter(options.model) ? undefined : resolveProviderConfig(options.model).baseURL;
  // The file a store opened here lives in (a host's own store may live anywhere: it says nothing of it).
  const storePath =
    typeof options.store === 'object'
      ? undefined
      : typeof options.store === 'string'
        ? options.store
        : (config?.db ?? defaultDatabasePath());
  // A postgres:// URL opens the PostgreSQL store (its driver loads only then); anything else, the SQLite file.
  const store = typeof options.store === 'object' ? options.store : await openStore(storePath as string);
  const workspace = config?.workspace.length ? config.workspace : [process.cwd()];
  const secrets = config?.secrets ?? new Map<string, string>();
  await sandbox;
  const notifier =
    options.notifier ??
    (config?.notify && options.builtins !== false
      ? createNotifier({ config: config.notify, store, logger })
      : undefined);
  // Messages an earlier process left pending are sent by this one (claimed, so never by two at once).
  if (options.notifier === undefined) notifier?.start();
  const builtins =
    options.builtins === false
      ? []
      : builtinProviders({
          workspace,
          memory: store,
          tasks: store,
          secrets,
          configPaths: config?.file ? [config.file] : [],
          ...(storePath !== undefined && storePath !== ':memory:' && !isPostgresUrl(storePath)
            ? { ownFiles: [storePath] }
            : {}),
          shell,
          ...(options.askUser ? { askUser: options.askUser } : {}),
          ...(notifier ? { notify: notifier } : {}),
          ...((options.automations ?? config?.automations !== undefined)
            ? { automations: automationDesk(store, config, () => notifier?.channels() ?? []) }
            : {}),
        });
  for (const provider of builtins) {
    for (const problem of provider.loadProblems())
      logger.log({ level: 'warn', scope: 'shell', message: problem });
  }
  const timeouts = config?.toolTimeouts ?? [];
  const registry = await registryFromConfig(config?.tools ?? EMPTY_TOOLS_CONFIG, {
    logger,
    providers: [...builtins, ...(options.tools ?? [])],
    callTimeouts: (tool) => timeouts.find((rule) => globMatch(rule.tool, tool))?.ms,
    secrets,
  });
  const contextWindow = options.contextWindow ?? configuredWindow(config, options.model.provider);
  const runtime = new Runtime({
    model,
    ...(modelBaseURL ? { modelBaseURL } : {}),
    // Stored with each turn too, so `toolseam approve` from another folder loads the same tools.
    ranWith: {
      workdir: process.cwd(),
      ...(config?.file ? { file: config.file } : {}),
      ...(config?.sha256 ? { sha256: config.sha256 } : {}),
    },
    registry,
    store,
    logger,
    workspace,
    // Hidden from results besides the stored secrets: the credentials the config itself holds.
    secrets: new Map([
      ...configCredentials(config, isAdapter(options.model) ? undefined : options.model),
      ...notifyCredentials(config?.notify, process.env),
      ...secrets,
    ]),
    approvals: { ...config?.approvals, ...options.approvals },
    ...(config?.system ? { system: config.system } : {}),
    ...(config?.limits ? { limits: config.limits } : {}),
    ...(config?.agents ? { agents: config.agents } : {}),
    ...(config?.denyList ? { denyList: config.denyList } : {}),
    ...(config?.hooks ? { hooks: config.hooks } : {}),
    ...(contextWindow ? { contextWindow } : {}),
    ...(options.signals ? { signals: options.signals } : {}),
    ...(options.hosted ? { hosted: options.hosted } : {}),
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
    ...(options.selector
      ? { selector: options.selector }
      : config?.embeddings
        ? {
            selector: configuredSelector(config.embeddings, logger, isVectorCache(store) ? store : undefined),
          }
        : {}),
  });
  if (options.subagents !== false) runtime.addRuntimeTool(deferredSubagentRun(runtime));
  return runtime;
}
