/**
 * toolseam's public API: build a runtime, talk to it, answer its approvals; the seam, the tool
 * boundary, the providers and the stand-ins for hosts and app authors who need the parts.
 */
import type { CreateRuntimeOptions } from './create-runtime.js';
import type { Runtime } from './runtime/runtime.js';
import type { StandIn, StandInOptions } from './testing/index.js';

export { parseConfig, readConfig, type ToolseamConfig } from './config.js';
export * from './core/index.js';
export type * from './core/session-store.js';
export {
  type AutomationsOptions,
  createAutomationScheduler,
  startAutomations,
} from './create-automations.js';
export type { CreateRuntimeOptions } from './create-runtime.js';
export { createModelAdapter, type ProviderConfig, type ProviderName } from './providers/index.js';
export {
  CatalogView,
  catalog,
  type EmbeddingSource,
  embeddingSelector,
  lexicalSelector,
  type RetrievalTool,
  ToolCatalog,
  ToolRetriever,
  type ToolSelection,
  type ToolSelector,
} from './retrieval/index.js';
export {
  type AutomationRunOutcome,
  AutomationScheduler,
  AutomationSpecError,
  type Clock,
  type ResultNotifier,
} from './runtime/automations/index.js';
export type { PreToolHook } from './runtime/calls/gates/pre-tool-hooks.js';
export type { RuntimeTool } from './runtime/calls/runtime-tool.js';
export { Runtime, type SendOptions, type Session, type SessionOptions } from './runtime/runtime.js';
export type {
  AgentConfig,
  ApprovalOptions,
  DenyRule,
  RuntimeOptions,
  TaskMode,
  TurnLimits,
} from './runtime/runtime-options.js';
export { SessionTurnRunningError, UnknownSessionError } from './runtime/sessions/delete-session.js';
export { type FixedBy, FixedByConfigError, UnknownToolError } from './runtime/tool-switches/switch-errors.js';
export type { ToolRow, ToolsPageData } from './runtime/tool-switches/tool-rows.js';
export {
  conformParameters,
  createToolSeam,
  decodeLiftedArguments,
  nameCensus,
  offerTool,
  offerTools,
  RESERVED_TOOL_NAMES,
  type RenamedKey,
  restoreDeclaredKeys,
  wireName,
} from './seam/index.js';
export {
  isPostgresUrl,
  openSessionStore,
  openStore,
  type PostgresSessionStore,
  type PostgresStoreOptions,
  type SessionStoreOptions,
  type SqliteSessionStore,
} from './store/index.js';
export type { StandIn, StandInOptions } from './testing/index.js';
export { appToolkit, loadApp } from './tools/apps/index.js';
export { type BuiltinOptions, builtinProviders } from './tools/builtin/builtin-providers.js';
export { type SandboxState, shellSandbox } from './tools/builtin/sandbox-probe.js';
export type { ShellOptions } from './tools/builtin/shell-options.js';
export {
  defineTool,
  field,
  inProcessProvider,
  missingArguments,
  mistypedArguments,
} from './tools/index.js';
export { createMcpProvider, parseMcpServers } from './tools/mcp/index.js';
export { fitText, type ServiceLimits } from './tools/notify/local-checks.js';
export {
  createNotifier,
  type Notifier,
  type NotifierOptions,
  type NotifyRequest,
  type NotifyResult,
} from './tools/notify/notifier.js';
export { type NotifyConfig, parseNotifyConfig } from './tools/notify/notify-config.js';
export { createToolRegistry, ToolRegistry } from './tools/registry/tool-registry.js';
export { type ToolsPage, toolsPage, toolsPageJson } from './tools/registry/tools-page.js';
export { renderToolsPage } from './tools/registry/tools-page-text.js';
export { readToolsConfig, registryFromConfig } from './tools/registry-config.js';

/**
 * Builds a runtime: model, store, the platform's tools, MCP servers and apps from the config (see
 * `create-runtime.ts`). The composition root, with what only it uses (subagents), is imported on the
 * first call.
 */
export async function createRuntime(options: CreateRuntimeOptions): Promise<Runtime> {
  const composition = await import('./create-runtime.js');
  return composition.createRuntime(options);
}

/**
 * Starts a loopback model provider stand-in for `options.family` (see `testing/stand-in.ts`). Its module,
 * with the AWS event-stream codec the Bedrock family writes with, is imported on the first call: a host
 * that never starts one never loads it.
 */
export async function startStandIn(options: StandInOptions): Promise<StandIn> {
  const standIn = await import('./testing/stand-in.js');
  return standIn.startStandIn(options);
}
