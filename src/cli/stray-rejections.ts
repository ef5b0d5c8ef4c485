// the one module it needs, not the apps' index: every CLI start (--version too) loads this file
import { hostedAppAt } from '../tools/apps/hosted-code.js';

/** Where a stack's first frame outside Node's own code points (an app's file, say), if it names one. */
function origin(error: unknown): string | undefined {
  const stack = error instanceof Error ? error.stack : undefined;
  const frame = stack?.split('\n').find((line) => /^\s+at /.test(line) && !line.includes('node:'));
  return frame?.match(/\(?((?:file:\/\/|\/)[^()\s]+:\d+:\d+)\)?\s*$/)?.[1];
}

/** What an error said, on one line of at most 300 characters. */
function firstLine(reason: unknown): string {
  const said = reason instanceof Error ? reason.message : String(reason);
  return said.split('\n')[0]?.slice(0, 300) ?? '';
}

/** One line about a stray rejection: what it said, and where it came from when the stack tells. */
export function describeStrayRejection(reason: unknown): string {
  const where = origin(reason);
  return (
    `toolseam: a promise was rejected with nobody to catch it${where ? ` (at ${where})` : ''}: ${firstLine(reason)}. ` +
    'toolseam goes on; if it came from an installed app or a tool, its author should await or catch it.'
  );
}

/**
 * The installed app an exception nobody caught was thrown from, judged by its stack: the first frame
 * outside Node's own code lies in the folder of an app this process loaded. Undefined for anything else
 * (toolseam's own code or a dependency's, or an error without a stack), which stays a crash.
 */
export function hostedOrigin(error: unknown): { readonly app: string; readonly where: string } | undefined {
  const where = origin(error);
  const hosted = where === undefined ? undefined : hostedAppAt(where.replace(/:\d+:\d+$/, ''));
  return hosted === undefined || where === undefined ? undefined : { app: hosted.app, where };
}

/** One line about an exception an installed app threw with nobody to catch it (from a timer, say). */
export function describeHostedException(error: unknown, hosted: { app: string; where: string }): string {
  return (
    `toolseam: the installed app "${hosted.app}" threw an error nobody caught (at ${hosted.where}): ${firstLine(error)}. ` +
    "toolseam goes on; the app's author should catch errors in its timers and callbacks."
  );
}

/**
 * Keeps the CLI running when code it hosts (an installed app's handler, say) leaves a rejected promise
 * behind, or throws from a timer or callback: Node would otherwise end the whole process mid-turn, one
 * tool taking down the session. Each one is told on stderr. An exception thrown by toolseam's own code
 * is a bug and ends the process as Node would (its stack on stderr, exit code 1).
 */
export function keepRunningOnStrayRejections(write: (line: string) => void): void {
  process.on('unhandledRejection', (reason) => write(`${describeStrayRejection(reason)}\n`));
  process.on('uncaughtException', (error) => {
    const hosted = hostedOrigin(error);
    if (hosted) {
      write(`${describeHostedException(error, hosted)}\n`);
      return;
    }
    write(`${error instanceof Error ? (error.stack ?? String(error)) : String(error)}\n`);
    process.exit(1);
  });
}
