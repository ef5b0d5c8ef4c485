import { spawn } from 'node:child_process';
import type { JsonObject } from '../../../core/json.js';
import { withoutTerminalCodes } from '../../../core/terminal-codes.js';
import { headOf, wholeStart } from '../../../core/text-cut.js';
import { globMatch } from '../../glob-match.js';

/**
 * A command run before a tool call. It refuses the call with a `BLOCKED: reason` line on its output, or
 * by exiting with code 2 and the reason on stderr (as Claude Code's hooks do); any other non-zero exit
 * is a hook that failed to run, which refuses the call too. It has answered when it exits: whatever it
 * left running in the background is ended then.
 */
export interface PreToolHook {
  /** Glob over real tool names; all tools when absent. */
  readonly match?: string;
  /** Shell command; receives `{"tool","arguments","sessionId"}` as JSON on stdin. */
  readonly command: string;
  /** Milliseconds the hook has to exit before it counts as failed (default 10 s). */
  readonly timeoutMs?: number;
  /** Folder the command runs in (a config's hooks: the config file's folder); default the current one. */
  readonly cwd?: string;
}

/** How much of a failed hook's stderr its refusal quotes. */
const STDERR_TAIL_CHARS = 300;

/** How much of one line of a hook's output is kept: a `BLOCKED:` reason (or exit-2 stderr) longer than this is cut. */
const MAX_LINE_CHARS = 2000;

/** The exit code by which a hook refuses the call on purpose, its reason on stderr. */
const BLOCK_EXIT_CODE = 2;

/** The reason of a block that gives none (an empty `BLOCKED:` line, exit code 2 with nothing on stderr). */
const NO_REASON = 'a policy hook';

/**
 * How long, after a hook exited, its output is still read while something it left running holds the
 * pipes open; then that is ended, and the hook's answer is what it wrote by then.
 */
const DRAIN_MS = 250;

/** A hook runs in a process group of its own (POSIX), so stopping it stops what its shell started. */
const OWN_GROUP = process.platform !== 'win32';

/**
 * The hooks' verdict: undefined lets the call through, a string is the reason it was blocked. When
 * `signal` aborts (the turn was stopped), the running hook is killed and nothing more is asked:
 * the caller reads the signal.
 */
export async function runPreToolHooks(
  hooks: readonly PreToolHook[],
  call: { tool: string; arguments: JsonObject; sessionId: string },
  signal?: AbortSignal,
): Promise<string | undefined> {
  for (const hook of hooks) {
    if (signal?.aborted) return undefined;
    if (hook.match !== undefined && !globMatch(hook.match, call.tool)) continue;
    const verdict = await runOne(hook, call, signal);
    if (verdict !== undefined) return verdict;
  }
  return undefined;
}

function runOne(
  hook: PreToolHook,
  call: object,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(hook.command, {
      shell: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: OWN_GROUP,
      ...(hook.cwd !== undefined ? { cwd: hook.cwd } : {}),
    });
    const output = blockedLineFinder();
    let err = '';
    let errHead = '';
    let settled = false;
    let exited: { code: number | null; killedBy: NodeJS.Signals | null } | undefined;
    let drain: ReturnType<typeof setTimeout> | undefined;
    const end = (verdict: string | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      signal?.removeEventListener('abort', onAbort);
      resolve(verdict);
    };
    const kill = (): void => {
      try {
        if (OWN_GROUP && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const onAbort = (): void => {
      kill();
      end(undefined);
    };
    /** The hook's answer, from what it said and how it exited; what it left running is ended first. */
    const decide = (): void => {
      if (exited === undefined || settled) return;
      kill();
      const { code, killedBy } = exited;
      const blocked = output.blocked(true);
      if (blocked !== undefined) end(blocked);
      else if (code === BLOCK_EXIT_CODE) end(headOfLine(oneLine(errHead)) || NO_REASON);
      else if (code !== 0) {
        // A policy that cannot be consulted must not be skipped silently: the call is refused.
        const said = tailOf(oneLine(err), STDERR_TAIL_CHARS);
        const how = code === null ? `ended by the signal ${killedBy ?? 'unknown'}` : `exit code ${code}`;
        end(`the pre-tool hook failed to run (${how}${said ? `: ${said}` : ''})`);
      } else end(undefined);
    };
    const timer = setTimeout(() => {
      kill();
      end(output.blocked() ?? 'the pre-tool hook did not answer in time');
    }, hook.timeoutMs ?? 10_000);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8').on('data', output.take);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (errHead.length < MAX_LINE_CHARS) errHead = headOfLine(errHead + chunk);
      err = (err + chunk).slice(-4 * STDERR_TAIL_CHARS);
    });
    child.on('error', () => end('the pre-tool hook could not be started'));
    // The hook has answered when it exits. A process it started in the background may hold its output
    // open for long after: what the hook wrote is read for a moment more, never waited on past that.
    child.on('exit', (code, killedBy) => {
      exited = { code, killedBy };
      clearTimeout(timer);
      drain = setTimeout(decide, DRAIN_MS);
    });
    child.on('close', decide);
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(call));
    if (signal?.aborted) onAbort();
  });
}

/**
 * Reads a hook's output as it comes, keeping only the line being read (its head, when long) and the
 * reason of the first `BLOCKED:` line: a hook that prints without end must not fill the memory.
 */
function blockedLineFinder(): { take(chunk: string): void; blocked(ended?: boolean): string | undefined } {
  let line = '';
  let reason: string | undefined;
  const look = (text: string): void => {
    const trimmed = withoutTerminalCodes(text).trimStart();
    if (trimmed.startsWith('BLOCKED:')) reason = trimmed.slice('BLOCKED:'.length).trim() || NO_REASON;
  };
  return {
    take(chunk) {
      if (reason !== undefined) return;
      let from = 0;
      for (let at = chunk.indexOf('\n'); at !== -1; at = chunk.indexOf('\n', from)) {
        look(headOfLine(line + chunk.slice(from, at)));
        line = '';
        from = at + 1;
        if (reason !== undefined) return;
      }
      line = headOfLine(line + chunk.slice(from));
    },
    blocked(ended = false) {
      // The last line counts once the output has ended, also without a line break after it.
      if (ended && reason === undefined && line !== '') look(line);
      return reason;
    },
  };
}

/** A line's first `MAX_LINE_CHARS` characters (never ending inside a surrogate pair). */
function headOfLine(text: string): string {
  return text.length <= MAX_LINE_CHARS ? text : headOf(text, MAX_LINE_CHARS);
}

/** A hook's stderr on one line: colour codes out, trimmed, its line breaks (and the blanks around them) as ` / `. */
function oneLine(text: string): string {
  return withoutTerminalCodes(text)
    .trim()
    .replace(/\s*\n\s*/g, ' / ');
}

/** The last `limit` characters of `text` (never starting inside a surrogate pair), marked when cut. */
function tailOf(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `…${text.slice(wholeStart(text, text.length - limit))}`;
}
