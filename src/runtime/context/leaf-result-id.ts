import type { LeafRecord } from '../../core/session-records.js';

/** The id `tool_result_read` reads a subagent leaf's whole output by: its batch and its place there. */
export function leafResultId(leaf: Pick<LeafRecord, 'batchId' | 'index'>): string {
  return `leaf:${leaf.batchId}:${leaf.index}`;
}

/** The batch and place a leaf's result id names, undefined for any other id. */
export function parseLeafResultId(
  id: string,
): { readonly batchId: string; readonly index: number } | undefined {
  const match = /^leaf:(.+):(\d+)$/.exec(id);
  if (match === null) return undefined;
  return { batchId: match[1] as string, index: Number(match[2]) };
}
