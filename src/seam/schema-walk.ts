import { takesOfResolved } from './lift-summary.js';
import {
  type ArgumentStep,
  EVERY_ELEMENT,
  type LiftedArgument,
  renderArgumentPath,
} from './lifted-argument.js';
import { MAX_DEPTH, MAX_NODES } from './profile.js';
import type { RuleId, SchemaIssue } from './schema-issue.js';
import { resolvePointer } from './schema-pointer.js';

/** Walks one node of a walk and returns the node to offer (see `walkNode`). */
export type NodeWalker = (
  w: Walk,
  raw: unknown,
  depth: number,
  atRoot?: boolean,
  leafTried?: boolean,
) => unknown;

/**
 * The state of one conform pass over one declared schema. One object serves pass after pass (see
 * `newWalk`), and every field keeps one kind of value, so the engine's view of it never changes.
 */
export class Walk {
  /** The declared root, for local `$ref`s. */
  root: unknown = undefined;
  issues: SchemaIssue[] = [];
  lifted: LiftedArgument[] = [];
  /**
   * Dotted schema path of the node being walked (`properties.tags.items`, `anyOf[1]`; "" at the
   * root) once a pending property name is joined to it: read it with `pathOf`.
   */
  path = '';
  /**
   * Set while the node being walked is the property `pendingName` of an object whose properties
   * sit at `pendingPrefix` (e.g. `properties.`): most properties record nothing, so their path is
   * only joined when something needs it.
   */
  pendingName: string | undefined = undefined;
  pendingPrefix = '';
  /**
   * Argument path of the node being walked: property names, or `EVERY_ELEMENT` for list elements,
   * in `args[argBase]` to `args[argTop - 1]` (a stack that keeps its storage between nodes and walks).
   */
  readonly args: Array<string | ArgumentStep> = [];
  argTop = 0;
  /** Where the current argument path starts (inside a `$ref` target walked on its own, past the reference's). */
  argBase = 0;
  /** `$ref`s being expanded on the way to this node (a repeat is a recursion). */
  readonly chain: string[] = emptyStringList();
  /** Nodes visited so far (bounded by MAX_NODES). */
  nodes = 0;
  /** What each local `$ref` looked up so far points at. */
  readonly refs = new Map<string, unknown>();
  /** `lookUp` bound to this walk, for the lifted-value summaries. */
  readonly resolver = (ref: string): unknown => lookUp(this, ref);
  /** Nodes visited inside inlined `$ref`s so far (bounded by MAX_INLINED). */
  inlined = 0;
  /** Walks of pure `{ "$ref" }` nodes whose target holds no further reference, by reference. */
  readonly refWalks = new Map<string, RefWalk>();
  /** `$ref` look-ups so far (a walk that made none inside a target can be reused). */
  lookups = 0;
  /** Nodes carried as JSON text because the walk hit its depth or size bound. */
  limited = 0;
  /** Deepest depth reached so far. */
  deepest = 0;
  /** The string nodes offered in place of lifted ones (to tell them from declared strings). */
  readonly liftedNodes = new Set<object>();
  /** True once an `anyOf` with several branches was offered (lifted paths may then overlap). */
  branched = false;
  /**
   * Walks a child node: the walk's one recursion, handed in by `newWalk`'s caller, so the files that
   * shape one kind of node reach the dispatcher without importing it (and it them).
   */
  walkNode: NodeWalker = unstarted;
}

function unstarted(): never {
  throw new Error('this walk was not started by newWalk, so it has no node walker');
}

/**
 * One walk of a `$ref` target, reusable at any later reference to it. Its defects are reported once,
 * where it was first inlined, so only what a later reference needs is kept, relative to it.
 */
export interface RefWalk {
  /** The offered node, or a `Lift` whose path is relative. */
  readonly out: unknown;
  /** Lifted arguments, with steps relative to the reference. */
  readonly lifted: readonly LiftedArgument[];
  readonly nodes: number;
  /** How much deeper than the reference the walk went. */
  readonly height: number;
}

/**
 * An empty list made to hold strings from the start: the engine then never has to change how it
 * stores the list when the first string arrives (which would undo code compiled for the empty one).
 */
function emptyStringList(): string[] {
  const list = [''];
  list.pop();
  return list;
}

/** A walk left by the last finished conform pass, to be reset for the next (see `newWalk`). */
let spare: Walk | undefined;

/**
 * A fresh walk over `root` whose children `walkNode` walks: the last finished one reset (a cold pass
 * over many tools pays for every allocation), or a new one when none was handed back or one is still
 * in use.
 */
export function newWalk(root: unknown, walkNode: NodeWalker): Walk {
  const w = spare ?? new Walk();
  spare = undefined;
  w.root = root;
  w.walkNode = walkNode;
  w.issues = [];
  w.lifted = [];
  w.path = '';
  w.pendingName = undefined;
  w.pendingPrefix = '';
  w.argTop = 0;
  w.argBase = 0;
  // Empty after a finished walk; emptying them again would give up their storage.
  if (w.chain.length !== 0) w.chain.length = 0;
  if (w.refs.size !== 0) w.refs.clear();
  if (w.refWalks.size !== 0) w.refWalks.clear();
  if (w.liftedNodes.size !== 0) w.liftedNodes.clear();
  w.nodes = 0;
  w.inlined = 0;
  w.lookups = 0;
  w.limited = 0;
  w.deepest = 0;
  w.branched = false;
  return w;
}

/** Counts a node about to be walked at `depth`; false when it is past the walk's bounds. */
export function countNode(w: Walk, depth: number): boolean {
  w.nodes += 1;
  // Added on every node (0 outside a `$ref`): code compiled before the first `$ref` stays valid.
  w.inlined += w.chain.length > 0 ? 1 : 0;
  if (depth > w.deepest) w.deepest = depth;
  return depth <= MAX_DEPTH && w.nodes <= MAX_NODES;
}

/** Hands a finished walk back for the next `newWalk` (its issues and lifted lists now belong to the caller). */
export function endWalk(w: Walk): void {
  w.root = undefined;
  spare = w;
}

/** What the local `$ref` points at, looked up once per reference and walk. */
export function lookUp(w: Walk, ref: string): unknown {
  if (w.refs.has(ref)) return w.refs.get(ref);
  const target = resolvePointer(w.root, ref);
  w.refs.set(ref, target);
  return target;
}

/**
 * A node with no portable form, on its way up to the nearest object property, where it is carried
 * as JSON text. Lists and `anyOf`s holding one are lifted whole.
 */
export class Lift {
  constructor(
    readonly rule: RuleId,
    /** Schema path of the defect that caused it. */
    readonly path: string,
    readonly detail: string,
  ) {}
}

/** The schema path of the current node. */
export function pathOf(w: Walk): string {
  if (w.pendingName !== undefined) {
    w.path = w.pendingPrefix + w.pendingName;
    w.pendingName = undefined;
  }
  return w.path;
}

/** Sets the current node's path (a nested walk puts its parent's back this way). */
export function setPath(w: Walk, path: string): void {
  w.path = path;
  w.pendingName = undefined;
}

/** `.segment` per keyword, built once (a path of an issue about a keyword ends in one). */
const DOTTED = new Map<string, string>();

/** The schema path of the current node, with an optional trailing segment. */
export function pathHere(w: Walk, extra?: string): string {
  const path = w.pendingName === undefined ? w.path : pathOf(w);
  if (extra === undefined) return path;
  if (path === '') return extra;
  let dotted = DOTTED.get(extra);
  if (dotted === undefined) {
    dotted = `.${extra}`;
    if (DOTTED.size < 256) DOTTED.set(extra, dotted);
  }
  return path + dotted;
}

/** Records a repair at the current node (or its `extra` keyword). */
export function repaired(w: Walk, rule: RuleId, detail: string, fix: string, extra?: string): void {
  w.issues.push({ rule, path: pathHere(w, extra), detail, action: 'repaired', fix });
}

/** Records a repair at the schema path `path`. */
export function repairedAt(w: Walk, rule: RuleId, detail: string, fix: string, path: string): void {
  w.issues.push({ rule, path, detail, action: 'repaired', fix });
}

/** A lift caused at the current node (or its `extra` keyword). */
export function liftHere(w: Walk, rule: RuleId, detail: string, extra?: string): Lift {
  return new Lift(rule, pathHere(w, extra), detail);
}

/**
 * A lift when the node being walked is a list element that takes null: an element cannot be left out
 * the way an argument can, so dropping null there would refuse values the tool accepts. Undefined
 * anywhere else (null is then carried by leaving the argument out).
 */
export function elementNull(w: Walk): Lift | undefined {
  if (w.argTop <= w.argBase || w.args[w.argTop - 1] !== EVERY_ELEMENT) return undefined;
  return liftHere(w, 'type_invalid', 'a list element that may be null has no portable form');
}

/** Steps into argument `step` (a property name or `EVERY_ELEMENT`) for the node walked next. */
export function enterArgument(w: Walk, step: string | ArgumentStep): void {
  w.args[w.argTop] = step;
  w.argTop += 1;
}

/** Steps back out of the last argument entered. */
export function leaveArgument(w: Walk): void {
  w.argTop -= 1;
}

/** The current argument path as steps. */
export function argumentSteps(w: Walk): ArgumentStep[] {
  const steps: ArgumentStep[] = [];
  for (let i = w.argBase; i < w.argTop; i += 1) {
    const s = w.args[i] as string | ArgumentStep;
    steps.push(typeof s === 'string' ? { kind: 'property', name: s } : EVERY_ELEMENT);
  }
  return steps;
}

/**
 * Records `lift` as carried as JSON text at the current argument, whose declared schema is
 * `declared` (its own `$ref`s already followed, see `deref`).
 */
export function recordLift(w: Walk, lift: Lift, declared: unknown): void {
  const steps = argumentSteps(w);
  w.issues.push({ rule: lift.rule, path: lift.path, detail: lift.detail, action: 'lifted', fix: LIFTED });
  w.lifted.push({ steps, path: renderArgumentPath(steps), takes: takesOfResolved(w.resolver, declared) });
}

const LIFTED = 'offered it as JSON text, decoded before the call is checked';

/** `relative` (a path inside a node) seen from the node at `base`. */
export function joinPath(base: string, relative: string): string {
  if (base === '') return relative;
  return relative === '' ? base : `${base}.${relative}`;
}
