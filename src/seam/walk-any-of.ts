import { isPlainObject } from '../core/json.js';
import { mergeSchemas, put, without } from './schema-merge.js';
import {
  elementNull,
  Lift,
  liftHere,
  pathHere,
  pathOf,
  repaired,
  setPath,
  type Walk,
} from './schema-walk.js';
import { resolveRef } from './walk-ref.js';

type Schema = Record<string, unknown>;

/** `anyOf` walked into a node to type (it had one branch left), as opposed to an offered node. */
export class Collapsed {
  constructor(readonly node: Schema) {}
}

function isNullSchema(branch: unknown): boolean {
  if (!isPlainObject(branch)) return false;
  const t = branch.type;
  return t === 'null' || (Array.isArray(t) && t.length > 0 && t.every((x) => x === 'null'));
}

/** `branches` without its `null` schemas and holes (the list itself when it has none). */
function withoutNullBranches(branches: unknown[]): unknown[] {
  for (let i = 0; i < branches.length; i += 1) {
    const branch = branches[i];
    if (isNullSchema(branch) || (branch === undefined && !(i in branches))) {
      return branches.filter((b) => !isNullSchema(b));
    }
  }
  return branches;
}

/** An `anyOf` node: null branches dropped, a single branch collapsed, several branches each walked. */
export function shapeAnyOf(w: Walk, node: Schema, depth: number, atRoot: boolean): unknown {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length === 0) {
    repaired(w, 'node_not_schema', '`anyOf` must be a non-empty list of schemas', 'dropped it');
    return new Collapsed(without(node, 'anyOf'));
  }
  const kept = withoutNullBranches(branches);
  if (kept.length < branches.length) {
    if (kept.length === 0) {
      return liftHere(w, 'type_invalid', 'an `anyOf` of only `null` accepts nothing but null');
    }
    const lift = elementNull(w);
    if (lift !== undefined) return lift;
    repaired(
      w,
      'type_invalid',
      'a `null` branch is not portable',
      'dropped it (the argument is omitted instead)',
    );
  }
  if (atRoot) {
    const merged = mergeRootBranches(w, node, kept);
    return merged instanceof Lift ? merged : new Collapsed(merged);
  }
  if (kept.length === 1) {
    const only = kept[0];
    const rest = without(node, 'anyOf');
    if (isPlainObject(only)) return new Collapsed(mergeSchemas(rest, only));
    if (only === true) return new Collapsed(rest);
  }
  return shapeBranches(w, node, kept, depth, kept.length !== branches.length);
}

function shapeBranches(w: Walk, node: Schema, kept: unknown[], depth: number, changed: boolean): unknown {
  const shared: Schema = {};
  let sharing = false;
  for (const key in node) {
    if (key === 'anyOf') continue;
    if (key === 'description' && typeof node.description === 'string') continue;
    repaired(
      w,
      'keyword_misplaced',
      `\`${key}\` beside \`anyOf\` is not portable`,
      'moved it into each branch',
      key,
    );
    put(shared, key, node[key]);
    sharing = true;
  }
  const issueMark = w.issues.length;
  const liftMark = w.lifted.length;
  const shaped: unknown[] = [];
  for (let i = 0; i < kept.length; i += 1) {
    const declared = kept[i];
    const branch = sharing && isPlainObject(declared) ? mergeSchemas(declared, shared) : declared;
    const parent = pathOf(w);
    setPath(w, pathHere(w, `anyOf[${i}]`));
    const result = w.walkNode(w, branch, depth + 1);
    setPath(w, parent);
    if (result instanceof Lift) {
      w.issues.length = issueMark;
      w.lifted.length = liftMark;
      return result;
    }
    if (result !== declared) changed = true;
    if (isPlainObject(result) && result.type === undefined && Array.isArray(result.anyOf)) {
      shaped.push(...result.anyOf);
      changed = true;
    } else {
      shaped.push(result);
    }
  }
  w.branched = true;
  if (!changed && !sharing) return node;
  const out: Schema = {};
  if (typeof node.description === 'string') out.description = node.description;
  out.anyOf = shaped;
  return out;
}

/** Several object shapes at the root: one object holding every shape's properties. */
function mergeRootBranches(w: Walk, node: Schema, kept: unknown[]): Schema | Lift {
  repaired(
    w,
    'root_combinator',
    '`anyOf` at the top level is not portable',
    'merged its object branches into one object',
    'anyOf',
  );
  const shapes: Schema[] = [];
  for (const branch of kept) {
    let at = branch;
    for (let hop = 0; hop < 8 && isPlainObject(at) && typeof at.$ref === 'string'; hop += 1) {
      const target = resolveRef(w, at.$ref);
      at = isPlainObject(target) ? mergeSchemas(without(at, '$ref'), target) : undefined;
    }
    if (isPlainObject(at) && mayBeObject(at.type)) shapes.push(at);
  }
  if (shapes.length === 0) {
    return liftHere(w, 'root_combinator', 'no branch of the top-level `anyOf` is an object', 'anyOf');
  }
  const props = new Map<string, unknown[]>();
  let required: string[] | undefined;
  for (const shape of shapes) {
    if (isPlainObject(shape.properties)) {
      for (const name in shape.properties) {
        const list = props.get(name) ?? [];
        list.push(shape.properties[name]);
        props.set(name, list);
      }
    }
    const names = Array.isArray(shape.required) ? shape.required.filter((n) => typeof n === 'string') : [];
    required = required === undefined ? names : required.filter((n) => names.includes(n));
  }
  const properties: Schema = {};
  for (const [name, list] of props) {
    const distinct = [...new Set(list)];
    put(properties, name, distinct.length === 1 ? distinct[0] : { anyOf: distinct });
  }
  const merged: Schema = { type: 'object', properties };
  if (required !== undefined && required.length > 0) merged.required = required;
  return mergeSchemas(without(node, 'anyOf'), merged);
}

function mayBeObject(type: unknown): boolean {
  return type === undefined || type === 'object' || (Array.isArray(type) && type.includes('object'));
}
