import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/cli/package-version.js';
import { toolseamInProcess } from './toolseam-in-process.js';

const root = join(import.meta.dirname, '..', '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
};

describe('toolseam --version', () => {
  it.each(['--version', '-V'])('%s prints the package version alone and exits 0', async (flag) => {
    const r = await toolseamInProcess([flag], tmpdir());
    expect(r).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('--help names --version', async () => {
    const r = await toolseamInProcess(['--help'], tmpdir());
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--version, -V\s+print toolseam's version/);
  });
});

describe('packageVersion', () => {
  it('finds the package.json above the built CLI as well as above the sources', () => {
    expect(packageVersion(join(root, 'dist', 'src', 'cli'))).toBe(version);
    expect(packageVersion(join(root, 'src', 'cli'))).toBe(version);
  });

  it("says unknown outside the package rather than another package's version", () => {
    expect(packageVersion(join(root, 'node_modules', 'vitest', 'dist'))).toBe(version); // ours is above
    expect(packageVersion(tmpdir())).toBe('unknown');
  });
});
