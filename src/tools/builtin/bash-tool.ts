import type { ToolContext, ToolResult } from '../../core/tool.js';
import { defineTool } from '../fields/define-tool.js';
import { type ArgsOf, field } from '../fields/field.js';
import { credentialVariables } from '../redact-secrets.js';
import { BoundedOutput } from './bounded-output.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork } from './checked-work.js';
import { commandEnv } from './command-env.js';
import type { CommandEnd } from './run-command.js';
import { checkCommand, type ShellSetup } from './shell-check.js';
import { runShell } from './shell-run.js';
import { MAX_SCANNED_FOLDERS, WorkspaceScanner } from './workspace-scan.js';

const fields = {
  command: field.string({
    description:
      'The bash command to run. Refer to a stored secret as {{secret:NAME}}; it is filled in at run time and ' +
      'hidden in the output.',
    minLength: 1,
    maxLength: 20_000,
    trim: true,
  }),
  timeout_seconds: field.integer({
    description: 'Stop the command after this many seconds.',
    min: 1,
    max: 600,
    default: 120,
  }),
};

/**
 * The editor a command gets: with nothing to type into, a terminal editor (vim, nano) waits until the timeout,
 * so this one ends at once and says what to do instead. Git and most others run it through `sh -c`.
 */
const NO_EDITOR =
  "printf '%s\\n' 'No editor can be opened here: nothing can be typed into this shell. Give the text on the " +
  'command line instead (git commit -m "message", git tag -m, git rebase without -i).\' >&2; false';

/** The variables every command runs with: no pager, no password prompt, no editor. */
const NO_PROMPTS = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  // GIT_EDITOR is read before the person's core.editor; EDITOR and VISUAL are what other programs read.
  GIT_EDITOR: NO_EDITOR,
  EDITOR: NO_EDITOR,
  VISUAL: NO_EDITOR,
} as const;

/** What a result says when the command left processes running that were ended with it. */
const BACKGROUND_NOTE =
  '[processes the command left running in the background were ended with it; nothing it starts outlives the command]';

/** Room a result keeps beside the output for its status lines (exit code, notes). */
const STATUS_ROOM = 600;

/** The runtime's cut of a result, when the context does not say. */
const DEFAULT_RESULT_CHARS = 20_000;

/**
 * The output a result can hold: its start and its end. Where the runtime keeps long results whole, as much
 * as it keeps (it shows the model the start and the end, status lines included, and the rest on request);
 * else within the runtime's cut, so the status lines are never the part cut.
 */
function boundedFor(ctx: ToolContext, hidden: ReadonlyMap<string, string>): BoundedOutput {
  const room = Math.max(200, (ctx.keptChars ?? ctx.resultChars ?? DEFAULT_RESULT_CHARS) - STATUS_ROOM);
  const head = Math.floor(room / 2);
  return new BoundedOutput(hidden, head, room - head);
}

function resultOf(end: CommandEnd, timeoutSeconds: number, removed: readonly string[]): ToolResult {
  const { output } = end;
  const data = {
    exitCode: end.exitCode ?? null,
    timedOut: end.timedOut,
    outputChars: output.total,
    cut: output.cut,
    backgroundEnded: end.backgroundEnded,
    ...(removed.length > 0 ? { removedConfigs: removed } : {}),
  };
  if (end.startError !== undefined) {
    return { content: `The command could not start: ${end.startError}`, isError: true, data };
  }
  const shown = output.text === '' ? '(no output)' : output.text.replace(/\n$/, '');
  let status: string | undefined;
  if (end.timedOut) status = `[stopped after ${timeoutSeconds} s: it ran past timeout_seconds]`;
  else if (end.stopped) status = '[stopped: the turn was stopped]';
  else if (end.exitCode === undefined) status = '[ended by a signal]';
  else if (end.exitCode !== 0) status = `[exit code ${end.exitCode}]`;
  const lines = [shown, ...(status === undefined ? [] : [status])];
  if (end.backgroundEnded) lines.push(BACKGROUND_NOTE);
  if (removed.length > 0) {
    lines.push(
      `[the command made ${removed.join(', ')}; removed, since only the person writes toolseam's configuration]`,
    );
  }
  return { content: lines.join('\n'), isError: status !== undefined || removed.length > 0, data };
}

/** The refusal a workspace too large to look through before each command gets. */
function tooManyFolders(limit: number): ToolResult {
  return {
    content:
      `The workspace folders hold more than ${limit.toLocaleString('en-US')} folders. Before each command the ` +
      'sandbox looks through them for credential files to hide, and it does not look through that many. ' +
      'Nothing was run.',
    isError: true,
    hints: [
      'Tell the person: a narrower "workspace" in toolseam.json lets the shell run, or "shell": {"sandbox": "off"} runs it unconfined.',
    ],
    notRun: 'refused_by_tool',
    data: { code: 'workspace_too_large', limit },
  };
}

/** What the model is told about where a command runs and what it can reach. */
function descriptionOf(setup: ShellSetup): string {
  const common =
    'Runs a bash command in the first workspace folder and shows its output (stdout and stderr together; ' +
    'a long output shows its start and end; secret values are hidden). No input can be typed into it, and ' +
    'whatever it starts in the background is ended when it ends. It gets a small environment (PATH, HOME, ' +
    'the locale, TERM), never a credential. ';
  const { bwrap, network } = setup.confinement;
  if (bwrap === undefined) {
    return (
      `${common}The shell is NOT sandboxed on this machine: a command can read and change whatever the ` +
      "user running toolseam can. Credential files, the system scheduler and toolseam's own configuration " +
      'are still refused by name.'
    );
  }
  return (
    `${common}It runs in a sandbox: it can change files only in the workspace folders and a private /tmp ` +
    "(emptied after each command), and read only those and the system's programs and libraries; the home " +
    "folder is an empty one, and credential files and toolseam's own configuration are hidden. " +
    (network ? 'It can reach the network.' : 'It has no network.')
  );
}

/** `bash`: runs a command in the first workspace folder, with a timeout, bounded output and secrets hidden. */
export function bashTool(setup: ShellSetup) {
  const scanner = new WorkspaceScanner();
  return defineTool({
    name: 'bash',
    description: descriptionOf(setup),
    risk: 'destructive',
    group: BUILTIN_GROUPS.shell,
    fields,
    // "always" for one command covers its program and subcommand, never every command
    grantScope: { command: 'command' },
    timeLimitMs: (args: ArgsOf<typeof fields>) => args.timeout_seconds * 1000,
    ...checkedWork(
      (args: ArgsOf<typeof fields>, ctx) => checkCommand(args.command, ctx, setup),
      async ({ cwd, roots, filled }, args, ctx) => {
        // Stored secrets win over a same-named variable, so the marker names what the person stored. The
        // runtime's (the config's own credentials too) are hidden here, before the output is cut.
        const hidden = new Map([
          ...credentialVariables(process.env),
          ...(ctx.secrets ?? []),
          ...setup.secrets,
        ]);
        const env = commandEnv(process.env, {
          names: setup.confinement.env,
          hidden: hidden.values(),
          fixed: { ...NO_PROMPTS, ...filled.env },
        });
        const run = {
          command: filled.command,
          cwd,
          roots,
          env,
          timeoutMs: args.timeout_seconds * 1000,
          signal: ctx.signal,
          output: boundedFor(ctx, hidden),
          writable: ctx.writable,
          offLimits: ctx.offLimits,
        };
        const ran = await runShell(run, setup.confinement, scanner);
        if ('tooMany' in ran) return tooManyFolders(MAX_SCANNED_FOLDERS);
        return resultOf(ran.end, args.timeout_seconds, ran.removedConfigs);
      },
    ),
  });
}
