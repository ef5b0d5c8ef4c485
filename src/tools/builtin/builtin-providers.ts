import type { MemoryBook, TaskBook } from '../../core/session-store.js';
import type { ToolGroup } from '../../core/tool.js';
import type { InProcessTool } from '../fields/define-tool.js';
import { type InProcessProvider, inProcessProvider } from '../fields/in-process-provider.js';
import type { Notifier } from '../notify/notifier.js';
import { type AskUser, askUserTool } from './ask-user-tool.js';
import { type AutomationDeskPort, automationTools } from './automation-tools.js';
import { bashTool } from './bash-tool.js';
import { BUILTIN_GROUPS, type BuiltinGroupKey } from './builtin-groups.js';
import { deniedPatterns } from './denied-commands.js';
import { editFileTool } from './edit-file-tool.js';
import type { FileScope } from './file-scope.js';
import { globTool } from './glob-tool.js';
import { grepTool } from './grep-tool.js';
import { listDirTool } from './list-dir-tool.js';
import { memoryTools } from './memory-tools.js';
import { NOTIFY_GROUP, notifyTools } from './notify-tools.js';
import { readFileTool } from './read-file-tool.js';
import { shellSandbox } from './sandbox-probe.js';
import type { ShellOptions } from './shell-options.js';
import type { ShellConfinement } from './shell-run.js';
import { taskTools } from './task-tools.js';
import { MAX_WALKED_ENTRIES } from './walk-files.js';
import { writeFileTool } from './write-file-tool.js';

/** What the platform's own tools are built with. */
export interface BuiltinOptions {
  /** The workspace folders the file tools are confined to (a call's `ctx.workspace` takes precedence). */
  readonly workspace: readonly string[];
  /** Where `memory_*` keep what they remember (the session store). */
  readonly memory: MemoryBook;
  /** Where `task_*` keep the to-do list (the session store). */
  readonly tasks: TaskBook;
  /** Stored secrets, name → value, that `{{secret:NAME}}` in a shell command refers to. */
  readonly secrets?: ReadonlyMap<string, string>;
  /** More commands the shell refuses: plain text a command must not contain, or `/regex/flags`. */
  readonly denyPatterns?: readonly string[];
  /** The runtime's own config files: no tool changes them (any `toolseam.json` is always included). */
  readonly configPaths?: readonly string[];
  /** Puts a question to the person; leave it out for an unattended run (then `ask_user` refuses). */
  readonly askUser?: AskUser;
  /** What a path outside every workspace folder is told about adding one (a host may name its own setting). */
  readonly addFolderHint?: string;
  /** How `bash` runs its commands (the config's "shell"): sandboxed by default, and not offered without one. */
  readonly shell?: ShellOptions;
  /** toolseam's own files besides its config (the session database): hidden from sandboxed commands. */
  readonly ownFiles?: readonly string[];
  /** Where the automation tools keep automations; without it they are not offered. */
  readonly automations?: AutomationDeskPort;
  /** The most folder entries one glob or grep looks at before it stops and says so (default 200,000). */
  readonly searchEntryLimit?: number;
  /** The owner channel (the config's "notify"): with it, `notify` and `notify_attachment` are offered. */
  readonly notify?: Notifier;
}

/** The app the platform's own providers belong to. */
export const BUILTIN_APP = 'toolseam';

const DEFAULT_ADD_FOLDER_HINT =
  'To work with files in another folder, the person adds it to the workspace folders toolseam runs with; ' +
  'the tools cannot widen their own reach.';

/** How commands run: in the sandbox when one can start (or unconfined when the config says so), or why not. */
function shellConfinement(options: BuiltinOptions): ShellConfinement | { readonly unavailable: string } {
  const shell = options.shell ?? {};
  const settled = {
    network: shell.network ?? false,
    read: shell.read ?? [],
    env: shell.env ?? [],
    ownFiles: [...(options.configPaths ?? []), ...(options.ownFiles ?? [])],
  };
  if (shell.sandbox === 'off') return { ...settled, bwrap: undefined };
  const sandbox = shellSandbox(shell.bwrap);
  if (!sandbox.ready) return { unavailable: sandbox.reason };
  return { ...settled, bwrap: sandbox.bwrap };
}

/** Why `bash` is missing, as the Tools page and the log say it. */
export function shellUnavailable(reason: string): string {
  return `bash is not offered: no sandbox can start here (${reason}). To offer it unconfined, set "shell": {"sandbox": "off"} in toolseam.json.`;
}

/** The platform's own tools, by group; `bash` only where its commands can run as the options say. */
export function builtinTools(options: BuiltinOptions): Record<BuiltinGroupKey, InProcessTool[]> {
  return builtinToolsWith(options, shellConfinement(options));
}

function fileScope(options: BuiltinOptions): FileScope {
  return {
    workspace: options.workspace,
    configPaths: options.configPaths ?? [],
    addFolderHint: options.addFolderHint ?? DEFAULT_ADD_FOLDER_HINT,
    searchEntryLimit: options.searchEntryLimit ?? MAX_WALKED_ENTRIES,
  };
}

function builtinToolsWith(
  options: BuiltinOptions,
  confinement: ShellConfinement | { readonly unavailable: string },
): Record<BuiltinGroupKey, InProcessTool[]> {
  const scope = fileScope(options);
  const shell =
    'unavailable' in confinement
      ? undefined
      : {
          scope,
          secrets: options.secrets ?? new Map(),
          denied: deniedPatterns(options.denyPatterns),
          confinement,
        };
  return {
    files: [
      readFileTool(scope),
      writeFileTool(scope),
      editFileTool(scope),
      listDirTool(scope),
      globTool(scope),
      grepTool(scope),
    ] as InProcessTool[],
    shell: (shell === undefined ? [] : [bashTool(shell)]) as InProcessTool[],
    memory: memoryTools(options.memory),
    tasks: taskTools(options.tasks),
    automations: options.automations ? automationTools(options.automations) : [],
    conversation: [askUserTool(options.askUser)] as InProcessTool[],
  };
}

/**
 * The platform's own tool providers, one per group (`builtin/files`, `builtin/shell`, `builtin/memory`,
 * `builtin/tasks`, `builtin/conversation`, and `builtin/notify` when the options carry a notifier), each
 * `own`, under the app `toolseam`, its tools in its group.
 * Register them all; `group` gives the purpose line a registry registration may take. Where no sandbox
 * can start and the options do not turn it off, `builtin/shell` serves no tool and its `loadProblems`
 * says why (the registry records it, the Tools page shows it). Throws InputError for an unusable denied
 * pattern.
 */
export function builtinProviders(
  options: BuiltinOptions,
): Array<InProcessProvider & { readonly group: ToolGroup; loadProblems(): readonly string[] }> {
  const confinement = shellConfinement(options);
  const tools = builtinToolsWith(options, confinement);
  // without a desk the automation tools are not there at all: no empty provider for them
  const keys = (Object.keys(BUILTIN_GROUPS) as BuiltinGroupKey[]).filter(
    (key) => key !== 'automations' || options.automations !== undefined,
  );
  const providers = keys.map((key) => {
    const group = BUILTIN_GROUPS[key];
    const provider = inProcessProvider({
      name: `builtin/${key}`,
      app: BUILTIN_APP,
      own: true,
      group,
      tools: tools[key],
    });
    // The registry records what `loadProblems` says as the provider's failure, which the Tools page shows.
    const missing =
      key === 'shell' && 'unavailable' in confinement ? [shellUnavailable(confinement.unavailable)] : [];
    return Object.assign(provider, { group, loadProblems: () => missing });
  });
  if (options.notify === undefined) return providers;
  const notify = inProcessProvider({
    name: 'builtin/notify',
    app: BUILTIN_APP,
    own: true,
    group: NOTIFY_GROUP,
    tools: notifyTools(options.notify, fileScope(options)),
  });
  // The registry closes its providers before the runtime closes the store: the outbox timer stops first.
  const notifier = options.notify;
  return [
    ...providers,
    Object.assign(notify, { group: NOTIFY_GROUP, loadProblems: () => [], close: () => notifier.close() }),
  ];
}
