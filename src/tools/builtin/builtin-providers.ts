import type { MemoryBook, TaskBook } from '../../core/session-store.js';
import type { ToolGroup } from '../../core/tool.js';
import type { InProcessTool } from '../define-tool.js';
import { type InProcessProvider, inProcessProvider } from '../in-process-provider.js';
import { type AskUser, askUserTool } from './ask-user-tool.js';
import { bashTool } from './bash-tool.js';
import { BUILTIN_GROUPS, type BuiltinGroupKey } from './builtin-groups.js';
import { deniedPatterns } from './denied-commands.js';
import { editFileTool } from './edit-file-tool.js';
import type { FileScope } from './file-scope.js';
import { globTool } from './glob-tool.js';
import { grepTool } from './grep-tool.js';
import { listDirTool } from './list-dir-tool.js';
import { memoryTools } from './memory-tools.js';
import { readFileTool } from './read-file-tool.js';
import { taskTools } from './task-tools.js';
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
}

/** The app the platform's own providers belong to. */
export const BUILTIN_APP = 'toolseam';

const DEFAULT_ADD_FOLDER_HINT =
  'To work with files in another folder, the person adds it to the workspace folders toolseam runs with; ' +
  'the tools cannot widen their own reach.';

/**
 * `bash` with its standing grants scoped by the command's program and subcommand (`git status …`), never
 * by the tool alone: "always" for one command must not let any other command run unasked.
 */
function commandScoped<A>(tool: InProcessTool<A>): InProcessTool<A> {
  return {
    ...tool,
    definition: { ...tool.definition, grantScope: { kind: 'command', argument: 'command' } },
  };
}

/** The platform's own tools, by group. */
export function builtinTools(options: BuiltinOptions): Record<BuiltinGroupKey, InProcessTool[]> {
  const scope: FileScope = {
    workspace: options.workspace,
    configPaths: options.configPaths ?? [],
    addFolderHint: options.addFolderHint ?? DEFAULT_ADD_FOLDER_HINT,
  };
  const shell = {
    scope,
    secrets: options.secrets ?? new Map(),
    denied: deniedPatterns(options.denyPatterns),
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
    shell: [commandScoped(bashTool(shell))] as InProcessTool[],
    memory: memoryTools(options.memory),
    tasks: taskTools(options.tasks),
    conversation: [askUserTool(options.askUser)] as InProcessTool[],
  };
}

/**
 * The platform's own tool providers, one per group (`builtin/files`, `builtin/shell`, `builtin/memory`,
 * `builtin/tasks`, `builtin/conversation`), each `own`, under the app `toolseam`, its tools in its group.
 * Register them all; `group` gives the purpose line a registry registration may take. Throws InputError
 * for an unusable denied pattern.
 */
export function builtinProviders(
  options: BuiltinOptions,
): Array<InProcessProvider & { readonly group: ToolGroup }> {
  const tools = builtinTools(options);
  return (Object.keys(BUILTIN_GROUPS) as BuiltinGroupKey[]).map((key) => {
    const group = BUILTIN_GROUPS[key];
    const provider = inProcessProvider({
      name: `builtin/${key}`,
      app: BUILTIN_APP,
      own: true,
      group,
      tools: tools[key],
    });
    return Object.assign(provider, { group });
  });
}
