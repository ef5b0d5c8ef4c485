import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled CLI's entry (`bin.js`) the process tests start, or '' to start it from source. */
    toolseamBin: string;
  }
}

const root = join(import.meta.dirname, '..', '..');

/**
 * Vitest's global setup for the full tier: compiles the sources once into a folder under
 * node_modules/.cache (where the packages resolve) for the tests that start the CLI as a process. A
 * child then loads plain JavaScript instead of putting some 350 modules through tsx (about half its CPU
 * time at start). Built on every run, so it never lags the sources; if the build leaves no CLI, the
 * tests start it from source as before.
 */
export default async function buildCli(project: TestProject): Promise<() => void> {
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(join(cache, 'toolseam-test-cli-'));
  // Readable by all: a test runs the CLI as another user (a database that user cannot write).
  chmodSync(outDir, 0o755);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [
    tsc,
    '-p',
    join(root, 'tsconfig.build.json'),
    '--outDir',
    outDir,
    '--declaration',
    'false',
    '--sourceMap',
    'false',
  ];
  // A type error still emits JavaScript; typecheck is where it fails.
  await promisify(execFile)(process.execPath, args, { cwd: root }).catch(() => undefined);
  const bin = join(outDir, 'src', 'cli', 'bin.js');
  project.provide('toolseamBin', existsSync(bin) ? bin : '');
  return () => rmSync(outDir, { recursive: true, force: true });
}
