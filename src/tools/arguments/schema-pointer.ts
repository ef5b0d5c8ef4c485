const resolved = new WeakMap<object, Map<string, unknown>>();

/** The node a local `$ref` (`#`, `#/$defs/x`, any `#/…` JSON pointer) names in `root`, if it resolves. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (typeof root !== 'object' || root === null) return resolve(root, ref);
  let known = resolved.get(root);
  if (known === undefined) {
    known = new Map();
    resolved.set(root, known);
  }
  if (known.has(ref)) return known.get(ref);
  const node = resolve(root, ref);
  known.set(ref, node);
  return node;
}

function resolve(root: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
