import type { ToolResult } from '../../core/tool.js';
import { defineTool } from '../define-tool.js';
import { type ArgsOf, field } from '../field.js';
import { BoundedOutput } from './bounded-output.js';
import { BUILTIN_GROUPS } from './builtin-groups.js';
import { checkedWork } from './checked-work.js';
import { credentialVariables } from './redact-secrets.js';
import { type CommandEnd, runCommand } from './run-command.js';
import { checkCommand, type ShellSetup } from './shell-check.js';

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

function resultOf(end: CommandEnd, timeoutSeconds: number): ToolResult {
  const { output } = end;
  const data = {
    exitCode: end.exitCode ?? null,
    timedOut: end.timedOut,
    outputChars: output.total,
    cut: output.cut,
    backgroundEnded: end.backgroundEnded,
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
  const isError = status !== undefined;
  const lines = [shown, ...(status === undefined ? [] : [status])];
  if (end.backgroundEnded) lines.push(BACKGROUND_NOTE);
  return { content: lines.join('\n'), isError, data };
}

/** `bash`: runs a command in the first workspace folder, with a timeout, bounded output and secrets hidden. */
export function bashTool(setup: ShellSetup) {
  return defineTool({
    name: 'bash',
    description:
      'Runs a bash command in the first workspace folder and shows its output (stdout and stderr together; ' +
      'a long output keeps its start and end; secret values are hidden). No input can be typed into it, and ' +
      'whatever it starts in the background is ended when it ends. ' +
      'Credential files, the system ' +
      "scheduler and toolseam's own configuration are off limits.",
    risk: 'destructive',
    group: BUILTIN_GROUPS.shell,
    fields,
    timeLimitMs: (args: ArgsOf<typeof fields>) => args.timeout_seconds * 1000,
    ...checkedWork(
      (args: ArgsOf<typeof fields>, ctx) => checkCommand(args.command, ctx, setup),
      async ({ cwd, filled }, args, ctx) => {
        // Stored secrets win over a same-named variable, so the marker names what the person stored. The
        // runtime's (the config's own credentials too) are hidden here, before the output is cut.
        const hidden = new Map([
          ...credentialVariables(process.env),
          ...(ctx.secrets ?? []),
          ...setup.secrets,
        ]);
        const end = await runCommand({
          command: filled.command,
          cwd,
          env: { ...process.env, ...NO_PROMPTS, ...filled.env },
          timeoutMs: args.timeout_seconds * 1000,
          signal: ctx.signal,
          output: new BoundedOutput(hidden),
        });
        return resultOf(end, args.timeout_seconds);
      },
    ),
  });
}
