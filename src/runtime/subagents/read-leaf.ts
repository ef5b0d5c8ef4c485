import { nearMiss } from '../../tools/index.js';
import { type BatchFinding, error } from '../batches/batch-finding.js';
import { LEAF_KEYS, type LeafCapability } from '../batches/leaf-contract.js';
import { readPaths, readText } from './read-declarations.js';

/** A leaf's declarations as read, before the contract rules are applied. */
export interface LeafDraft {
  readonly task?: string | undefined;
  readonly title?: string | undefined;
  readonly objective?: string | undefined;
  readonly output_format?: string | undefined;
  readonly boundary?: string | undefined;
  readonly capability?: LeafCapability | undefined;
  readonly writes: readonly string[];
  readonly off_limits: readonly string[];
  /** Keys given but unreadable (already reported; not reported again as missing). */
  readonly unreadable: readonly string[];
}

type TextKey = 'task' | 'title' | 'objective' | 'output_format' | 'boundary';
const TEXT_KEYS: readonly TextKey[] = ['task', 'title', 'objective', 'output_format', 'boundary'];
const ACCEPTED = LEAF_KEYS.join(', ');

/**
 * Reads one leaf object's declarations, pushing a finding for every key of the wrong type or unknown
 * to the contract; what cannot be read is left out of the draft.
 */
export function readLeaf(item: Record<string, unknown>, leaf: number, out: BatchFinding[]): LeafDraft {
  const draft: {
    -readonly [K in keyof LeafDraft]: LeafDraft[K];
  } = { writes: [], off_limits: [], unreadable: [] };
  const unreadable: string[] = [];
  draft.unreadable = unreadable;
  for (const key of Object.keys(item)) {
    if ((LEAF_KEYS as readonly string[]).includes(key)) continue;
    const near = nearMiss(key, LEAF_KEYS);
    out.push(
      error(
        'leaf_declaration_unknown',
        `"${key}" is not part of a leaf's contract, which takes: ${ACCEPTED}.`,
        near ? `Did you mean "${near}"? Rename it.` : 'Drop it, or put what it says into one of those keys.',
        leaf,
      ),
    );
  }
  for (const key of TEXT_KEYS) {
    const read = readText(item[key]);
    if (read.ok) draft[key] = read.value;
    else {
      unreadable.push(key);
      out.push(mistyped(key, read.why, 'Send it as text.', leaf));
    }
  }
  const capability = readText(item['capability']);
  if (!capability.ok) out.push(mistyped('capability', capability.why, CAPABILITY_FIX, leaf));
  else if (capability.value !== undefined) {
    const word = capability.value.toLowerCase();
    if (word === 'research' || word === 'mutating') draft.capability = word;
    else out.push(mistyped('capability', `is "${capability.value}"`, CAPABILITY_FIX, leaf));
  }
  for (const key of ['writes', 'off_limits'] as const) {
    const read = readPaths(item[key]);
    if (read.ok) draft[key] = read.value;
    else out.push(mistyped(key, read.why, 'Send a list of paths, e.g. ["notes/summary.md"].', leaf));
  }
  return draft;
}

const CAPABILITY_FIX = 'Use "research" (it only looks things up) or "mutating" (it changes things).';

function mistyped(key: string, why: string, fix: string, leaf: number): BatchFinding {
  return error('leaf_declaration_type', `its ${key} ${why}.`, fix, leaf);
}
