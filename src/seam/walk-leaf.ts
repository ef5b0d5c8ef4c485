import { isPortableType, isScalarType, PORTABLE_TYPES, type PortableType } from './profile.js';
import { repairedAt, type Walk } from './schema-walk.js';

type Schema = Record<string, unknown>;

/** `plainLeaf`'s answer for a leaf offered as declared. */
export const KEEP = 'keep';

/**
 * What a plain leaf needs — a node whose only keys are `type` (a scalar, or a scalar and "null"),
 * text `description` / `title` and `default`, as most nodes of real schemas are: `KEEP` when it is
 * portable as declared, the scalar type when its nullable type list must be narrowed to it.
 * Undefined for any other node, which the general walk takes. One pass over the keys, nothing
 * allocated: a cold pass over many tools meets such leaves more than anything else.
 */
export function plainLeaf(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
  let type: unknown;
  for (const key in node) {
    if (key === 'type') type = (node as Schema).type;
    else if (key === 'description' || key === 'title') {
      if (typeof (node as Schema)[key] !== 'string') return undefined;
    } else if (key !== 'default') return undefined;
  }
  // The scalar types, spelled out: this runs for most nodes of every schema.
  if (type === 'string' || type === 'boolean' || type === 'number' || type === 'integer') return KEEP;
  if (!Array.isArray(type) || type.length !== 2) return undefined;
  const other = type[0] === 'null' ? type[1] : type[1] === 'null' ? type[0] : undefined;
  return isScalarType(other) ? (other as string) : undefined;
}

/** What is said about a `[T, "null"]` type list, per T (the most frequent repair there is). */
export const NULLABLE_WORDS = Object.fromEntries(
  PORTABLE_TYPES.map((t) => [
    t,
    {
      detail: `a type list ["${t}", "null"] is not portable`,
      fix: `narrowed it to "${t}" (the argument is omitted instead of null)`,
    },
  ]),
) as Record<PortableType, { detail: string; fix: string }>;

/**
 * A plain leaf whose `type` is `[only, "null"]`, offered as `only` (the repair recorded at
 * `typePath`): the same copy the general pass makes, keys in order (none here needs `put`).
 */
export function narrowLeaf(w: Walk, node: Schema, only: string, typePath: string): Schema {
  const words = NULLABLE_WORDS[only as PortableType];
  repairedAt(w, 'type_invalid', words.detail, words.fix, typePath);
  const out: Schema = {};
  for (const key in node) out[key] = key === 'type' ? only : node[key];
  return out;
}

/** The one portable type of a `[T, "null"]` list (either order), else undefined. */
export function nullablePair(listed: unknown[]): string | undefined {
  if (listed.length !== 2) return undefined;
  const other = listed[0] === 'null' ? listed[1] : listed[1] === 'null' ? listed[0] : undefined;
  return isPortableType(other) ? other : undefined;
}
