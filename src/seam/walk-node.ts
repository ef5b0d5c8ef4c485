import { isPlainObject } from '../core/json.js';
import { scanNode } from './node-scan.js';
import { takesNull } from './omitted-nulls.js';
import { A_TYPE, isPortableType } from './profile.js';
import { mergeSchemas, put, without } from './schema-merge.js';
import { countNode, elementNull, Lift, liftHere, pathHere, repaired, type Walk } from './schema-walk.js';
import { Collapsed, shapeAnyOf } from './walk-any-of.js';
import { KEEP, narrowLeaf, nullablePair, plainLeaf } from './walk-leaf.js';
import { refProblem, resolveRef, walkRefOnly } from './walk-ref.js';
import { shapeTyped } from './walk-typed.js';

type Schema = Record<string, unknown>;

/** Most rewrites ($ref, allOf, oneOf, type lists, const) one node goes through before it is typed. */
const MAX_REWRITES = 64;

/**
 * Walks one declared node and returns the node to offer: the SAME object when it is portable, a
 * repaired copy, or a `Lift` when it has no portable form (the caller carries it as JSON text).
 * Never mutates its input; bounded in depth and size. `leafTried`: the caller already knows it is
 * not a plain leaf.
 *
 * The rewrite loop lives here rather than in helpers on purpose: a function this size is not
 * inlined into its recursive callers, which keeps the optimizing compiler's units small (a cold
 * pass over the corpus measured at about half the time).
 */
export function walkNode(w: Walk, raw: unknown, depth: number, atRoot = false, leafTried = false): unknown {
  if (!countNode(w, depth)) {
    w.limited += 1;
    return liftHere(w, 'node_not_schema', 'the schema is too deep or too large to carry node by node');
  }
  if (!isPlainObject(raw)) return notASchema(w, raw);
  const leaf = atRoot || leafTried ? undefined : plainLeaf(raw);
  if (leaf !== undefined) {
    if (leaf === KEEP) return raw;
    return elementNull(w) ?? narrowLeaf(w, raw, leaf, pathHere(w, 'type'));
  }
  let scan = scanNode(raw, depth);
  const mark = w.chain.length;
  let node = raw;
  let out: unknown;
  for (let round = 0; out === undefined; round += 1) {
    let next: Schema | Lift | undefined;
    if (round === MAX_REWRITES) {
      out = shapeTyped(w, node, scan, depth, atRoot);
    } else if (!scan.structural) {
      if (Array.isArray(scan.type) && nullablePair(scan.type) === undefined) next = typeListToNodes(w, node);
      else if (scan.type === undefined && Array.isArray(scan.enumValues) && !atRoot) {
        next = enumByValueType(w, node);
      }
      if (next === undefined) out = shapeTyped(w, node, scan, depth, atRoot);
    } else if (node.$ref !== undefined) {
      if (typeof node.$ref === 'string' && scan.keys === 1 && !atRoot) {
        // The target's walk is shared by every reference to it, so it cannot see that this one is a
        // list element: a target that takes null is lifted here instead.
        const lift = elementNull(w);
        out = lift !== undefined && takesNull(w.resolver, node) ? lift : walkRefOnly(w, node.$ref, depth);
      } else next = inlineRef(w, node);
    } else if (node.allOf !== undefined) {
      next = mergeAllOf(w, node);
    } else if (node.oneOf !== undefined) {
      next = oneOfToAnyOf(w, node);
    } else if (node.anyOf !== undefined) {
      const shaped = shapeAnyOf(w, node, depth, atRoot);
      if (shaped instanceof Collapsed) next = shaped.node;
      else out = shaped;
    } else if (Array.isArray(scan.type) && nullablePair(scan.type) === undefined) {
      next = typeListToNodes(w, node);
    } else {
      next = constToEnum(w, node);
    }
    if (next instanceof Lift) out = next;
    else if (next !== undefined) {
      node = next;
      scan = scanNode(node, depth);
    }
  }
  if (w.chain.length !== mark) w.chain.length = mark;
  return out;
}

function notASchema(w: Walk, raw: unknown): Lift {
  if (raw === true) return liftHere(w, 'type_missing', 'the schema `true` accepts any value');
  if (raw === false) return liftHere(w, 'node_not_schema', 'the schema `false` accepts no value');
  const shown = JSON.stringify(raw) ?? String(raw);
  return liftHere(w, 'node_not_schema', `a schema must be an object, not ${shown.slice(0, 40)}`);
}

/** A `$ref` with sibling keywords: the target merged under the siblings, then walked as one node. */
function inlineRef(w: Walk, node: Schema): Schema | Lift {
  const ref = node.$ref;
  if (typeof ref !== 'string') return liftHere(w, 'keyword_unsupported', '`$ref` must be a string');
  const target = resolveRef(w, ref);
  const problem = refProblem(w, ref, target);
  if (problem !== undefined) return problem;
  repaired(w, 'keyword_unsupported', '`$ref` is not portable', 'inlined what it points at');
  w.chain.push(ref);
  const siblings = without(node, '$ref');
  if (target === true) return siblings;
  return Object.keys(siblings).length === 0 ? (target as Schema) : mergeSchemas(siblings, target as Schema);
}

function mergeAllOf(w: Walk, node: Schema): Schema {
  const branches = node.allOf;
  let merged = without(node, 'allOf');
  if (!Array.isArray(branches) || branches.length === 0) {
    repaired(w, 'node_not_schema', '`allOf` must be a non-empty list of schemas', 'dropped it');
    return merged;
  }
  for (const branch of branches) {
    if (!isPlainObject(branch)) continue;
    const ref = branch.$ref;
    const target = typeof ref === 'string' && !w.chain.includes(ref) ? resolveRef(w, ref) : undefined;
    if (isPlainObject(target) && typeof ref === 'string') {
      w.chain.push(ref);
      merged = mergeSchemas(merged, mergeSchemas(without(branch, '$ref'), target));
    } else {
      merged = mergeSchemas(merged, branch);
    }
  }
  const fix = branches.length === 1 ? 'merged its branch into the node' : 'merged its branches into one node';
  repaired(w, 'keyword_unsupported', '`allOf` is not portable', fix);
  return merged;
}

function oneOfToAnyOf(w: Walk, node: Schema): Schema {
  if (node.anyOf !== undefined) {
    repaired(
      w,
      'keyword_unsupported',
      '`oneOf` beside `anyOf` is not portable',
      'dropped it (the tool still checks it)',
    );
    return without(node, 'oneOf');
  }
  repaired(w, 'keyword_unsupported', '`oneOf` is not portable', 'widened it to `anyOf`');
  const out: Schema = {};
  for (const key in node) put(out, key === 'oneOf' ? 'anyOf' : key, node[key]);
  return out;
}

function typeListToNodes(w: Walk, node: Schema): Schema | Lift {
  const listed = node.type as unknown[];
  const names = [...new Set(listed)];
  const bad = names.find((t) => t !== 'null' && !isPortableType(t));
  if (bad !== undefined) {
    return liftHere(w, 'type_invalid', `\`type\` ${JSON.stringify(bad)} is not portable`, 'type');
  }
  const types = names.filter(isPortableType);
  if (types.length === 0) {
    return liftHere(w, 'type_invalid', 'a `type` of only `null` accepts nothing but null', 'type');
  }
  const shown = JSON.stringify(listed);
  if (names.includes('null')) {
    const lift = elementNull(w);
    if (lift !== undefined) return lift;
  }
  if (types.length === 1) {
    const fix = names.includes('null')
      ? `narrowed it to "${types[0]}" (the argument is omitted instead of null)`
      : `made it "${types[0]}"`;
    repaired(w, 'type_invalid', `a type list ${shown} is not portable`, fix, 'type');
    return { ...node, type: types[0] };
  }
  repaired(
    w,
    'type_invalid',
    `a type list ${shown} is not portable`,
    'made it an `anyOf` of one node per type',
    'type',
  );
  const out: Schema = {};
  if (typeof node.description === 'string') out.description = node.description;
  out.anyOf = types.map((t) => branchOfType(node, t));
  return out;
}

/** The part of a several-typed node that applies to values of type `t`. */
function branchOfType(node: Schema, t: string): Schema {
  const branch: Schema = { type: t };
  for (const key in node) {
    if (key === 'type' || key === 'description') continue;
    if (key === 'enum') {
      const values = Array.isArray(node.enum) ? node.enum.filter((v) => typeof v === 'string') : [];
      if (t === 'string' && values.length > 0) branch.enum = values;
      continue;
    }
    put(branch, key, node[key]);
  }
  return branch;
}

function constToEnum(w: Walk, node: Schema): Schema | Lift {
  const value = node.const;
  const rest = without(node, 'const');
  if (typeof value === 'string') {
    if (value !== '' && (rest.type === undefined || rest.type === 'string')) {
      repaired(w, 'keyword_unsupported', '`const` is not portable', 'made it a one-value enum', 'const');
      return { ...rest, type: 'string', enum: [value] };
    }
    repaired(
      w,
      'keyword_unsupported',
      '`const` is not portable',
      'dropped it (the tool still checks it)',
      'const',
    );
    return rest.type === undefined ? { ...rest, type: 'string' } : rest;
  }
  if (typeof value === 'number' || typeof value === 'boolean') {
    const kind = typeof value === 'boolean' ? 'boolean' : Number.isInteger(value) ? 'integer' : 'number';
    repaired(
      w,
      'keyword_unsupported',
      `${A_TYPE[kind]} \`const\` is not portable`,
      'dropped it (the tool still checks it)',
      'const',
    );
    return rest.type === undefined ? { ...rest, type: kind } : rest;
  }
  return liftHere(
    w,
    'keyword_unsupported',
    `a \`const\` of ${JSON.stringify(value).slice(0, 40)} has no portable form`,
    'const',
  );
}

/** An untyped `enum` whose values are not all strings: typed by its values, one branch per type. */
function enumByValueType(w: Walk, node: Schema): Schema | undefined {
  const values = node.enum as unknown[];
  if (values.length === 0 || values.every((v) => typeof v === 'string')) return undefined;
  const kinds = new Set<string>();
  for (const v of values) {
    if (v === null) continue;
    if (typeof v === 'string' || typeof v === 'boolean') kinds.add(typeof v);
    else if (typeof v === 'number') kinds.add(Number.isInteger(v) ? 'integer' : 'number');
    else kinds.add(Array.isArray(v) ? 'array' : 'object');
  }
  if (kinds.has('number')) kinds.delete('integer');
  const fix = kinds.size > 1 ? 'gave each value type its own `anyOf` branch' : 'typed it by its values';
  repaired(
    w,
    'type_missing',
    'declares no `type`, and its `enum` holds values that are not strings',
    fix,
    'enum',
  );
  if (kinds.size === 0) return { ...without(node, 'enum'), type: 'null' };
  const branches = [...kinds].map((t) => branchOfType(node, t));
  const out: Schema = {};
  if (typeof node.description === 'string') out.description = node.description;
  if (branches.length === 1) return { ...branches[0], ...out };
  out.anyOf = branches;
  return out;
}
