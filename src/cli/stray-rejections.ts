/** Where a stack's first frame outside Node's own code points (an app's file, say), if it names one. */
function origin(error: unknown): string | undefined {
  const stack = error instanceof Error ? error.stack : undefined;
  const frame = stack?.split('\n').find((line) => /^\s+at /.test(line) && !line.includes('node:'));
  return frame?.match(/\(?((?:file:\/\/|\/)[^()\s]+:\d+:\d+)\)?\s*$/)?.[1];
}

/** One line about a stray rejection: what it said, and where it came from when the stack tells. */
export function describeStrayRejection(reason: unknown): string {
  const said = reason instanceof Error ? reason.message : String(reason);
  const first = said.split('\n')[0]?.slice(0, 300) ?? '';
  const where = origin(reason);
  return (
    `toolseam: a promise was rejected with nobody to catch it${where ? ` (at ${where})` : ''}: ${first}. ` +
    'toolseam goes on; if it came from an installed app or a tool, its author should await or catch it.'
  );
}

/**
 * Keeps the CLI running when code it hosts (an installed app's handler, say) leaves a rejected promise
 * behind: Node would otherwise end the whole process mid-turn, one tool taking down the session. Each
 * one is told on stderr.
 */
export function keepRunningOnStrayRejections(write: (line: string) => void): void {
  process.on('unhandledRejection', (reason) => write(`${describeStrayRejection(reason)}\n`));
}
