import type { JobQueue } from '../../core/job-queue.js';
import type { LeafRecord } from '../../core/session-store.js';
import { JOB_KINDS } from './job-kinds.js';

/** Puts a leaf's job on the queue (keyed by the leaf: at most one waits for it). */
export async function sendLeafJob(queue: JobQueue, leaf: Pick<LeafRecord, 'batchId' | 'id'>): Promise<void> {
  await queue.send(JOB_KINDS.leaf, { batchId: leaf.batchId, leafId: leaf.id }, { key: leaf.id });
}
