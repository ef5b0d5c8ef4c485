import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { toolseamNodeArgs } from './spawn-toolseam.js';

const run = promisify(execFile);

/** Runs the CLI in `cwd` as a user would; resolves with its exit code and output. */
export async function runToolseam(
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
  user?: { readonly uid: number; readonly gid: number },
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, toolseamNodeArgs(args), {
      cwd,
      env: { ...process.env, ...env },
      timeout: 60_000,
      ...user,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
