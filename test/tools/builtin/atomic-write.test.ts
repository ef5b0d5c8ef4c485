import { execFile } from 'node:child_process';
import {
  chmodSync,
  linkSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/tools/builtin/atomic-write.js';
import { TSX_LOADER } from '../../support/tsx-loader.js';

const run = promisify(execFile);
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolseam-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writing a file all at once', () => {
  it('leaves the old file whole when the write fails part way (a file-size limit stands in for a full disk)', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'old\n'.repeat(500));
    const module = pathToFileURL(
      join(import.meta.dirname, '..', '..', '..', 'src', 'tools', 'builtin', 'atomic-write.ts'),
    ).href;
    const script = `import(${JSON.stringify(module)}).then((m) => m.writeFileAtomic(${JSON.stringify(file)}, 'new\\n'.repeat(5000))).then(() => console.log('written'), (e) => console.log(e.code))`;
    // ulimit -f counts 1,024-byte blocks: 4 KB lets the old file stand but not the new 20 KB.
    const { stdout } = await run('bash', [
      '-c',
      `ulimit -f 4; exec "${process.execPath}" --import ${TSX_LOADER} -e "$0"`,
      script,
    ]);
    expect(stdout.trim()).toBe('EFBIG');
    expect(readFileSync(file, 'utf8')).toBe('old\n'.repeat(500));
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('replaces only the workspace entry of a hard link, and keeps the replaced file’s permissions', async () => {
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'keep me');
    const linked = join(dir, 'linked.txt');
    linkSync(outside, linked);
    chmodSync(linked, 0o640);
    await writeFileAtomic(linked, 'new text');
    expect(readFileSync(linked, 'utf8')).toBe('new text');
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(statSync(linked).mode & 0o777).toBe(0o640);
  });

  it('gives a new file the bits a plain write would, and a replaced 0600 file stays 0600', async () => {
    const made = join(dir, 'new.txt');
    await writeFileAtomic(made, 'x');
    expect(statSync(made).mode & 0o777).toBe(0o666 & ~process.umask());
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'old');
    chmodSync(secret, 0o600);
    await writeFileAtomic(secret, 'new');
    expect(statSync(secret).mode & 0o777).toBe(0o600);
  });
});
