import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { withoutBom } from '../../core/read-json-file.js';
import { linesOf, looksBinary, MAX_FILE_BYTES } from './file-text.js';

/** How many lines of a large file are matched at a time. */
const BATCH_LINES = 10_000;

/** How many leading bytes decide whether a file is binary. */
const HEAD_BYTES = 8192;

/** A file's lines in order, in batches; matching a batch at a time keeps a file of any size in bounded memory. */
export type LineBatches = Iterable<readonly string[]> | AsyncIterable<readonly string[]>;

/**
 * The lines grep searches in a file: a file read_file would take is read whole, a larger one is streamed in
 * batches (read_file sends the model to grep for those). Undefined for a binary or unreadable file, and
 * for a file with more than one name (hard links).
 */
export async function searchedLines(file: string, signal: AbortSignal): Promise<LineBatches | undefined> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const { size, nlink } = await handle.stat();
    // Another name of the file may lie outside the workspace, as read_file refuses it.
    if (nlink > 1) return undefined;
    if (size <= MAX_FILE_BYTES) {
      const bytes = await handle.readFile();
      return looksBinary(bytes) ? undefined : [linesOf(withoutBom(bytes.toString('utf8')))];
    }
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    if (looksBinary(head.subarray(0, bytesRead))) return undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
  return streamedBatches(file, signal);
}

async function* streamedBatches(file: string, signal: AbortSignal): AsyncGenerator<readonly string[]> {
  const stream = createReadStream(file, { encoding: 'utf8', signal });
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let batch: string[] = [];
  let first = true;
  try {
    for await (const line of reader) {
      batch.push(first ? withoutBom(line) : line);
      first = false;
      if (batch.length === BATCH_LINES) {
        yield batch;
        batch = [];
      }
    }
  } catch {
    // Stopped or no longer readable: the lines read so far are still searched.
  } finally {
    reader.close();
    stream.destroy();
  }
  if (batch.length > 0) yield batch;
}
