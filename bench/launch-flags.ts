import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceRoot } from './source-root.js';

const BIN = join('bin', 'toolseam.js');

/**
 * The flags toolseam's launcher starts Node with, read from its first line
 * (`#!/usr/bin/env -S node FLAGS`), so a fresh process in a bench runs as `toolseam` itself does.
 */
export function launchFlags(): string[] {
  const root = sourceRoot(BIN);
  if (root === undefined) throw new Error(`No ${BIN} above the benches: run them from the repository.`);
  const first = (readFileSync(join(root, BIN), 'utf8').split('\n', 1)[0] ?? '').trimEnd();
  const match = /^#!\/usr\/bin\/env -S node((?: --?[\w-]+(?:=\S+)?)*)$/.exec(first);
  if (!match) throw new Error(`${BIN} starts "${first}", not "#!/usr/bin/env -S node [flags]".`);
  return (match[1] ?? '').split(' ').filter((f) => f !== '');
}
