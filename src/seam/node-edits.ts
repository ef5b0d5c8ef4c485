import type { RuleId } from './schema-issue.js';
import { put } from './schema-merge.js';
import { repaired, type Walk } from './schema-walk.js';

type Schema = Record<string, unknown>;

/** The changes a typed node needs: keys to leave out, and keys to (re)set with their values. */
export class Edits {
  readonly dropped: string[] = [];
  /** Key, value, key, value, … */
  readonly sets: unknown[] = [];

  drop(key: string): this {
    this.dropped.push(key);
    return this;
  }

  set(key: string, value: unknown): this {
    this.sets.push(key, value);
    return this;
  }

  /** Where `key`'s new value sits in `sets`, or -1. */
  valueAt(key: string): number {
    for (let i = 0; i < this.sets.length; i += 2) if (this.sets[i] === key) return i + 1;
    return -1;
  }
}

/** `edits`, or new ones. */
export function edit(edits: Edits | undefined): Edits {
  return edits ?? new Edits();
}

/** Leaves `key` out of the offered node, recording why. */
export function dropKey(
  w: Walk,
  edits: Edits | undefined,
  key: string,
  rule: RuleId,
  detail: string,
  fix = 'dropped it',
): Edits {
  repaired(w, rule, detail, fix, key);
  const out = edit(edits);
  out.drop(key);
  return out;
}

/** A copy of `node` with the edits applied; `type` first when it was set. */
export function rebuild(node: Schema, edits: Edits): Schema {
  const out: Schema = {};
  const { dropped, sets } = edits;
  if (node.type === undefined) {
    const at = edits.valueAt('type');
    if (at > 0) out.type = sets[at];
  }
  for (const key in node) {
    if (dropped.length > 0 && dropped.includes(key)) continue;
    const at = sets.length > 0 ? edits.valueAt(key) : -1;
    const value = at > 0 ? sets[at] : node[key];
    if (key === '__proto__') put(out, key, value);
    else out[key] = value;
  }
  for (let i = 0; i < sets.length; i += 2) {
    const key = sets[i] as string;
    if (!Object.hasOwn(out, key)) put(out, key, sets[i + 1]);
  }
  return out;
}
