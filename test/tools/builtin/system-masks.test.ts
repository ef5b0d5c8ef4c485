import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { sandboxArgs } from '../../../src/tools/builtin/sandbox-plan.js';
import { privateSystemFiles, systemFilesListed } from '../../../src/tools/builtin/system-masks.js';

/** The private entries of /etc found the plain way: every entry's own mode read, links included. */
function everyEntryRead(folder: string, found: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return found;
  }
  for (const name of names) {
    const path = join(folder, name);
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(path);
    } catch {
      continue;
    }
    if (stat.isDirectory()) {
      if ((stat.mode & 0o004) === 0 || (stat.mode & 0o001) === 0) found.push(path);
      else everyEntryRead(path, found);
    } else if (stat.isFile() && (stat.mode & 0o004) === 0) found.push(path);
  }
  return found;
}

describe('the binds that hide them', () => {
  const plan = { roots: [], cwd: '/', home: '/home/nobody', hidden: [], network: false, read: [] };
  /** The places a sandbox's arguments bind something read-only over, in /etc. */
  const overEtc = (args: readonly string[]) =>
    args.flatMap((arg, i) => (arg === '--ro-bind' && args[i + 2]?.startsWith('/etc/') ? [args[i + 2]] : []));

  it('are left out of a start asked without them, which lists nothing of /etc', async () => {
    // Modules loaded afresh: another test file sharing this worker (the quick tier shares one module
    // graph per worker) may have listed /etc through the ones imported above.
    vi.resetModules();
    const fresh = await import('../../../src/tools/builtin/sandbox-plan.js');
    const masks = await import('../../../src/tools/builtin/system-masks.js');
    expect(masks.systemFilesListed()).toBe(false);
    expect(overEtc(fresh.sandboxArgs(plan, { sweep: false, systemMasks: false }))).toEqual([]);
    expect(masks.systemFilesListed()).toBe(false);
  });

  it("are in every command's sandbox, one over each private entry", () => {
    const masked = overEtc(sandboxArgs(plan, { sweep: false }));
    expect(systemFilesListed()).toBe(true);
    expect(masked).toEqual(privateSystemFiles().map((p) => p.path));
    if (existsSync('/etc/shadow')) expect(masked).toContain('/etc/shadow');
  });
});

describe("the system's private files the sandbox hides", () => {
  it('are the entries of /etc others may not read, the same as when every entry is looked at', () => {
    const hidden = privateSystemFiles().map((p) => p.path);
    expect(hidden).toEqual(everyEntryRead('/etc').sort());
    // Debian keeps the password hashes from other users; no link is listed.
    if (existsSync('/etc/shadow')) expect(hidden).toContain('/etc/shadow');
    for (const path of hidden) expect(lstatSync(path).isSymbolicLink()).toBe(false);
  });
});
