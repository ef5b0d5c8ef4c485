import { isPlainObject, type JsonObject, type JsonValue } from '../core/json.js';
import { branchesOf, deref, type Resolve } from './lift-summary.js';
import { mergeSchemas, put, without } from './schema-merge.js';
import { resolvePointer } from './schema-pointer.js';

type Schema = Record<string, unknown>;

/** Deepest nesting followed (a recursive schema ends here). */
const MAX_DEPTH = 32;

/**
 * The call's arguments with `null` filled in for every required property the model left out whose
 * DECLARED schema takes null: the offer cannot carry null, so the seam offers such a property as
 * optional and leaving it out stands for null. Follows nested objects and list elements the call
 * holds; the input is never mutated (unchanged parts are shared).
 */
export function fillOmittedNulls(declared: unknown, args: JsonObject): JsonObject {
  const resolve: Resolve = (ref) => resolvePointer(declared, ref);
  return fill(resolve, declared, args, 0) as JsonObject;
}

function fill(resolve: Resolve, raw: unknown, value: JsonValue, depth: number): JsonValue {
  if (depth > MAX_DEPTH) return value;
  const node = flatten(resolve, raw);
  if (!isPlainObject(node)) return value;
  if (Array.isArray(value)) return fillElements(resolve, node.items, value, depth);
  if (!isPlainObject(value)) return value;
  if (!isPlainObject(node.properties)) {
    const branch = branchFor(resolve, node, value);
    return branch === undefined ? value : fill(resolve, branch, value, depth + 1);
  }
  const props = node.properties as Schema;
  let copy: JsonObject | undefined;
  for (const name in value) {
    if (!Object.hasOwn(props, name)) continue;
    const inner = value[name] as JsonValue;
    const next = fill(resolve, props[name], inner, depth + 1);
    if (next !== inner) {
      copy ??= { ...value };
      put(copy, name, next);
    }
  }
  if (Array.isArray(node.required)) {
    for (const name of node.required) {
      if (typeof name !== 'string' || !Object.hasOwn(props, name) || Object.hasOwn(value, name)) continue;
      if (takesNull(resolve, props[name])) {
        copy ??= { ...value };
        put(copy, name, null);
      }
    }
  }
  return copy ?? value;
}

/**
 * The node with its `$ref`s followed and its `allOf` merged, as the walk merges them before it
 * offers the node (so a property made optional there is found here).
 */
function flatten(resolve: Resolve, raw: unknown): unknown {
  let node = deref(resolve, raw);
  for (let round = 0; round < 8 && isPlainObject(node) && Array.isArray(node.allOf); round += 1) {
    let merged = without(node, 'allOf');
    for (const branch of node.allOf) {
      const target = deref(resolve, branch);
      if (isPlainObject(target)) merged = mergeSchemas(merged, target);
    }
    node = deref(resolve, merged);
  }
  return node;
}

/**
 * The one `anyOf` / `oneOf` object branch that declares every key the value holds: the branch the
 * call was meant for. None when no branch, or more than one, fits (filling then could pick wrong).
 */
function branchFor(resolve: Resolve, node: Schema, value: JsonObject): Schema | undefined {
  let found: Schema | undefined;
  for (const raw of branchesOf(node) ?? []) {
    const branch = flatten(resolve, raw);
    if (!isPlainObject(branch) || !isPlainObject(branch.properties)) continue;
    const props = branch.properties;
    let fits = true;
    for (const key in value) if (!Object.hasOwn(props, key)) fits = false;
    if (!fits) continue;
    if (found !== undefined) return undefined;
    found = branch;
  }
  return found;
}

function fillElements(resolve: Resolve, items: unknown, list: JsonValue[], depth: number): JsonValue {
  if (!isPlainObject(items)) return list;
  let copy: JsonValue[] | undefined;
  for (let i = 0; i < list.length; i += 1) {
    const element = list[i] as JsonValue;
    const next = fill(resolve, items, element, depth + 1);
    if (next !== element) {
      copy ??= list.slice();
      copy[i] = next;
    }
  }
  return copy ?? list;
}

/** Most nodes one `takesNull` question reads: beyond it the answer is "in doubt", so false. */
const MAX_VISITS = 10_000;

/** One `takesNull` question's memory: what each node was found to take, and how many were read. */
interface NullQuestion {
  readonly resolve: Resolve;
  readonly known: Map<object, boolean>;
  visits: number;
}

/**
 * True when the declared node surely accepts null: its `type` lists null (or it is OpenAPI-`nullable`)
 * or, untyped, its `const` / `enum` holds null or its branches take null; and no `enum`, `const`,
 * `allOf`, `anyOf` or `oneOf` beside that rules null out. False when in doubt.
 */
export function takesNull(resolve: Resolve, raw: unknown): boolean {
  const node = deref(resolve, raw);
  if (!isPlainObject(node)) return false;
  // Most nodes have no combinator: answered at once, with no memory to set up.
  if (node.allOf === undefined && node.anyOf === undefined && node.oneOf === undefined) {
    return answerFor(NO_BRANCHES, node, 0);
  }
  return nodeTakesNull({ resolve, known: new Map(), visits: 0 }, node, 0);
}

/** The question about a node without branches: it never reaches a branch, so nothing in it is read. */
const NO_BRANCHES: NullQuestion = { resolve: () => undefined, known: new Map(), visits: 0 };

function nodeTakesNull(q: NullQuestion, raw: unknown, depth: number): boolean {
  const node = deref(q.resolve, raw);
  if (!isPlainObject(node) || depth > MAX_DEPTH) return false;
  // A node met again (definitions referenced from many branches) is answered once: without this a
  // chain of definitions that each branch twice takes time doubling with every link.
  const known = q.known.get(node);
  if (known !== undefined) return known;
  q.visits += 1;
  if (q.visits > MAX_VISITS) return false;
  const answer = answerFor(q, node, depth);
  q.known.set(node, answer);
  return answer;
}

function answerFor(q: NullQuestion, node: Schema, depth: number): boolean {
  if (Array.isArray(node.enum) && !node.enum.includes(null)) return false;
  if (node.const !== undefined && node.const !== null) return false;
  const type = node.type;
  const saysNull =
    node.nullable === true || type === 'null' || (Array.isArray(type) && type.includes('null'));
  if (type !== undefined && !saysNull) return false;
  const branches = branchesTakeNull(q, node, depth);
  if (branches !== undefined) return branches;
  return saysNull || node.const === null || Array.isArray(node.enum);
}

/**
 * Whether the node's combinators all let null through (`allOf`: every branch; `anyOf`: one at
 * least; `oneOf`: exactly one, as two would make null match twice); undefined when it has none.
 */
function branchesTakeNull(q: NullQuestion, node: Schema, depth: number): boolean | undefined {
  const count = (list: unknown): number | undefined =>
    Array.isArray(list) ? list.filter((b) => nodeTakesNull(q, b, depth + 1)).length : undefined;
  const all = count(node.allOf);
  const any = count(node.anyOf);
  const one = count(node.oneOf);
  if (all === undefined && any === undefined && one === undefined) return undefined;
  return (
    (all === undefined || all === (node.allOf as unknown[]).length) &&
    (any === undefined || any > 0) &&
    (one === undefined || one === 1)
  );
}
