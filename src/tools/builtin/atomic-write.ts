import { randomBytes } from 'node:crypto';
import { chmod, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces the file at `path` with `content` all at once: written to a new file beside it, flushed,
 * then renamed over it. A failed write (a full disk, a quota) leaves the old file as it was, and a
 * hard link into the workspace replaces only the workspace's entry, never the file it shared.
 * A replaced file keeps its permission bits.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const kept = await stat(path).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  // The user's alone while it fills: the content may be what a 0600 file held.
  const file = await open(temp, 'wx', 0o600);
  try {
    try {
      await file.writeFile(content, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    // A new file gets the umask's bits, as a plain write would; a replaced one keeps its own.
    await chmod(temp, kept ?? 0o666 & ~process.umask());
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
