// Passed to `node --import`: writes every module URL the process resolves on stderr, one per line after
// "resolved: ", so a test can read a process's module graph. Node runs loader hooks on a thread of their
// own; this file registers itself from the main thread and is the hook on that thread.
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

/** The resolve hook: passes every request on and notes where it went. */
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  process.stderr.write(`resolved: ${resolved.url}\n`);
  return resolved;
}

if (isMainThread) register(import.meta.url);
