import { randomBytes } from 'node:crypto';
import { chmod, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The most bytes of the file's own name that a temporary file's name repeats. */
const STEM_BYTES = 100;

/**
 * The start of a temporary file's name: the file's name, cut to whole characters within STEM_BYTES, so the
 * temporary name stays within the 255 bytes a file system takes however long the file's own name is.
 */
function tempStem(name: string): string {
  let stem = '';
  let bytes = 0;
  for (const char of name) {
    bytes += Buffer.byteLength(char);
    if (bytes > STEM_BYTES) break;
    stem += char;
  }
  return stem;
}

/**
 * Replaces the file at `path` with `content` all at once: written to a new file beside it, flushed,
 * then renamed over it. A failed write (a full disk, a quota) leaves the old file as it was, and a
 * hard link into the workspace replaces only the workspace's entry, never the file it shared.
 * A replaced file keeps its permission bits; a file nobody may write is refused, not replaced.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const kept = await stat(path).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  // Checked again here, the last moment before the rename, which would replace it regardless.
  if (kept !== undefined && (kept & 0o222) === 0) {
    throw new Error(
      `${path} became read-only (permissions ${kept.toString(8).padStart(4, '0')}) before it was written; it was left as it is.`,
    );
  }
  const temp = join(dirname(path), `.${tempStem(basename(path))}.${randomBytes(6).toString('hex')}.tmp`);
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
