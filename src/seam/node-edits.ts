import type { RuleId } from './schema-issue.js';
import { put } from './schema-merge.js';
import { pathHere, type Walk } from './schema-walk.js';

type Schema = Record<string, unknown>;

/** The value that marks a key left out of the offered node. */
const DROPPED: unique symbol = Symbol('dropped');

/**
 * The changes a typed node needs, in the order they were decided: key, value, key, value, … where
 * the value `DROPPED` leaves the key out. Empty when the node is offered as declared.
 */
export class Edits {
  /** The first `size` entries are this node's; the array is kept (not shrunk) between nodes. */
  readonly pairs: unknown[] = [];
  size = 0;

  /** Sets `key` to `value` on the offered node. */
  set(key: string, value: unknown): void {
    this.pairs[this.size] = key;
    this.pairs[this.size + 1] = value;
    this.size += 2;
  }

  /** Leaves `key` out of the offered node. */
  drop(key: string): void {
    this.pairs[this.size] = key;
    this.pairs[this.size + 1] = DROPPED;
    this.size += 2;
  }
}

/**
 * One set of edits per depth, reused for each node: a typed node's edits are only written while it
 * is shaped, and meanwhile only nodes one level deeper are shaped. (A cold pass over a large tool
 * list would otherwise allocate them for most of its nodes.)
 */
const byDepth: Edits[] = [];

/** Empty edits for the node being shaped at `depth`. */
export function editsAt(depth: number): Edits {
  let edits = byDepth[depth];
  if (edits === undefined) {
    edits = new Edits();
    byDepth[depth] = edits;
  } else if (edits.size > 0) {
    // Let go of the last node's values.
    const { pairs, size } = edits;
    for (let i = 0; i < size; i += 1) pairs[i] = undefined;
    edits.size = 0;
  }
  return edits;
}

/** Leaves `key` out of the offered node, recording why. */
export function dropKey(
  w: Walk,
  edits: Edits,
  key: string,
  rule: RuleId,
  detail: string,
  fix = 'dropped it',
): void {
  w.issues.push({ rule, path: pathHere(w, key), detail, action: 'repaired', fix });
  edits.drop(key);
}

/** Where the first value set for `key` sits in `pairs` (of `size` entries), or -1. */
function valueAt(pairs: unknown[], size: number, key: string): number {
  for (let i = 0; i < size; i += 2) if (pairs[i] === key && pairs[i + 1] !== DROPPED) return i + 1;
  return -1;
}

/**
 * `node` itself when there are no edits, else a copy with them applied: `type` first when it was
 * set on an untyped node, the node's own keys in order, then new keys in the order they were set.
 */
export function applyEdits(node: Schema, edits: Edits): Schema {
  const { pairs, size } = edits;
  if (size === 0) return node;
  const out: Schema = {};
  if (node.type === undefined) {
    const at = valueAt(pairs, size, 'type');
    if (at > 0) out.type = pairs[at];
  }
  for (const key in node) {
    // Where the first value set for `key` sits, or -1; -2 when it is left out.
    let at = -1;
    for (let i = 0; i < size; i += 2) {
      if (pairs[i] !== key) continue;
      if (pairs[i + 1] === DROPPED) {
        at = -2;
        break;
      }
      if (at < 0) at = i + 1;
    }
    if (at === -2) continue;
    const value = at > 0 ? pairs[at] : node[key];
    if (key === '__proto__') put(out, key, value);
    else out[key] = value;
  }
  for (let i = 0; i < size; i += 2) {
    const key = pairs[i] as string;
    const value = pairs[i + 1];
    if (value !== DROPPED && !Object.hasOwn(out, key)) put(out, key, value);
  }
  return out;
}
