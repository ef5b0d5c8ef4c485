import { isPlainObject } from '../core/json.js';

/** `#/$defs/Name` or `#/definitions/Name` with nothing to unescape: the common case, looked up directly. */
const PLAIN_DEFINITION = /^#\/(\$defs|definitions)\/([^/~%]+)$/;

/**
 * Resolves a local `$ref` (`#`, `#/$defs/Name`, any `#/…` JSON pointer, percent-encoded or not)
 * against the schema's root. Returns `undefined` for a reference that points outside the document
 * or at nothing.
 */
export function resolvePointer(root: unknown, ref: string): unknown {
  const plain = PLAIN_DEFINITION.exec(ref);
  if (plain !== null && isPlainObject(root)) {
    const table = root[plain[1] as string];
    const name = plain[2] as string;
    return isPlainObject(table) && Object.hasOwn(table, name) ? table[name] : undefined;
  }
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let at: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const step = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(at)) {
      if (!/^(0|[1-9][0-9]*)$/.test(step)) return undefined;
      at = at[Number(step)];
    } else if (isPlainObject(at) && Object.hasOwn(at, step)) {
      at = at[step];
    } else {
      return undefined;
    }
  }
  return at;
}
