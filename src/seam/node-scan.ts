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
  /** Only `type`, text `description` / `title` and `default`: a node of a scalar type is portable as declared. */
  plain = true;
  /** How many keys the node has. */
  keys = 0;
}

/**
 * One scan per depth, reused. A node's scan is read while its own node is walked, and only nodes
 * one level deeper are walked meanwhile; the next node at its depth starts once it is done. (A
 * cold pass over a large tool list would otherwise allocate one scan per schema node.)
 */
const byDepth: NodeScan[] = [];

/** Scans `node`'s keys once, into the scan kept for `depth`. */
export function scanNode(node: Record<string, unknown>, depth: number): NodeScan {
  let scan = byDepth[depth];
  if (scan === undefined) {
    scan = new NodeScan();
    byDepth[depth] = scan;
  } else {
    scan.type = undefined;
    scan.enumValues = undefined;
    scan.properties = undefined;
    scan.required = undefined;
    scan.items = undefined;
    scan.structural = false;
    scan.other = false;
    scan.plain = true;
    scan.keys = 0;
  }
  for (const key in node) {
    const value = node[key];
    scan.keys += 1;
    switch (key) {
      case 'type':
        scan.type = value;
        break;
      case 'description':
      case 'title':
        if (typeof value !== 'string') {
          scan.other = true;
          scan.plain = false;
        }
        break;
      case 'default':
        break;
      case 'enum':
        scan.enumValues = value;
        scan.plain = false;
        break;
      case 'properties':
        scan.properties = value;
        scan.plain = false;
        break;
      case 'required':
        scan.required = value;
        scan.plain = false;
        break;
      case 'items':
        scan.items = value;
        scan.plain = false;
        break;
      case '$ref':
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
      case 'const':
        scan.structural = true;
        scan.plain = false;
        break;
      default:
        scan.other = true;
        scan.plain = false;
    }
  }
  return scan;
}
