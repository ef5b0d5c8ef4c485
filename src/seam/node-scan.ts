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
}

/** Scans `node`'s keys once. */
export function scanNode(node: Record<string, unknown>): NodeScan {
  const scan = new NodeScan();
  for (const key in node) {
    const value = node[key];
    scan.keys += 1;
    switch (key) {
      case 'type':
        scan.type = value;
        break;
      case 'description':
      case 'title':
        if (typeof value !== 'string') scan.other = true;
        break;
      case 'default':
        break;
      case 'enum':
        scan.enumValues = value;
        break;
      case 'properties':
        scan.properties = value;
        break;
      case 'required':
        scan.required = value;
        break;
      case 'items':
        scan.items = value;
        break;
      case '$ref':
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
      case 'const':
        scan.structural = true;
        break;
      default:
        scan.other = true;
    }
  }
  return scan;
}
