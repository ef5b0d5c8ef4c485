import { isPlainObject } from '../core/json.js';

/**
 * What one pass over a schema node's keys found. Reading every key once, in order, is much cheaper
 * than asking a node of unknown shape for each keyword by name (generated schemas come in hundreds
 * of shapes, which defeats the engine's property caches).
 */
export class NodeScan {
  type: unknown = undefined;
  enumValues: unknown = undefined;
  properties: unknown = undefined;
  required: unknown = undefined;
  items: unknown = undefined;
  /** `$ref`, `allOf`, `anyOf`, `oneOf` or `const` is present: the node is rewritten before it is typed. */
  structural = false;
  /** A key the keyword pass must look at: a bound, `format`, `pattern`, a non-text annotation, anything else. */
  other = false;
  /** How many keys the node has. */
  keys = 0;
  /** Whether `properties` is an object with a key (worked out once, by `declaresProperties`). */
  declared: boolean | undefined = undefined;
}

/** True when the scanned node's `properties` is an object with at least one key. */
export function declaresProperties(scan: NodeScan): boolean {
  if (scan.declared === undefined) scan.declared = hasKeys(scan.properties);
  return scan.declared;
}

/** True for an object with at least one key. */
export function hasKeys(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  for (const _ in value) return true;
  return false;
}

/**
 * One scan per depth, reused. A node's scan is read while its own node is walked, and only nodes
 * one level deeper are walked meanwhile; the next node at its depth starts once it is done. (A
 * cold pass over a large tool list would otherwise allocate one scan per schema node.)
 */
const byDepth: NodeScan[] = [];

/** Scans `node`'s keys once, into the scan kept for `depth`. */
export function scanNode(node: Record<string, unknown>, depth: number): NodeScan {
  // Gathered in locals and stored once: each store into the scan costs far more than a local.
  let type: unknown;
  let enumValues: unknown;
  let properties: unknown;
  let required: unknown;
  let items: unknown;
  let structural = false;
  let other = false;
  let keys = 0;
  for (const key in node) {
    keys += 1;
    switch (key) {
      case 'type':
        type = node.type;
        break;
      case 'description':
      case 'title':
        if (typeof node[key] !== 'string') other = true;
        break;
      case 'properties':
        properties = node.properties;
        break;
      case 'required':
        required = node.required;
        break;
      case 'items':
        items = node.items;
        break;
      case 'enum':
        enumValues = node.enum;
        break;
      case 'default':
        break;
      case '$ref':
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
      case 'const':
        structural = true;
        break;
      default:
        other = true;
    }
  }
  let scan = byDepth[depth];
  if (scan === undefined) {
    scan = new NodeScan();
    byDepth[depth] = scan;
  }
  scan.type = type;
  scan.enumValues = enumValues;
  scan.properties = properties;
  scan.required = required;
  scan.items = items;
  scan.structural = structural;
  scan.other = other;
  scan.keys = keys;
  scan.declared = undefined;
  return scan;
}
