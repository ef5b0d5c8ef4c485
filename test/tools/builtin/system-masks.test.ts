import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { privateSystemFiles } from '../../../src/tools/builtin/system-masks.js';

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

describe("the system's private files the sandbox hides", () => {
  it('are the entries of /etc others may not read, the same as when every entry is looked at', () => {
    const hidden = privateSystemFiles().map((p) => p.path);
    expect(hidden).toEqual(everyEntryRead('/etc').sort());
    // Debian keeps the password hashes from other users; no link is listed.
    if (existsSync('/etc/shadow')) expect(hidden).toContain('/etc/shadow');
    for (const path of hidden) expect(lstatSync(path).isSymbolicLink()).toBe(false);
  });
});
