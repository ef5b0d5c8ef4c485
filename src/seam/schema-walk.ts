import { takesOf } from './lift-summary.js';
import {
  type ArgumentStep,
  EVERY_ELEMENT,
  type LiftedArgument,
  renderArgumentPath,
} from './lifted-argument.js';
import type { RuleId, SchemaIssue } from './schema-issue.js';
import { resolvePointer } from './schema-pointer.js';

/** The state of one conform pass over one declared schema. */
export interface Walk {
  /** The declared root, for local `$ref`s. */
  readonly root: unknown;
  readonly issues: SchemaIssue[];
  readonly lifted: LiftedArgument[];
  /** Dotted schema path of the node being walked (`properties.tags.items`, `anyOf[1]`; "" at the root). */
  path: string;
  /** Argument path of the node being walked: property names, or `EVERY_ELEMENT` for list elements. */
  readonly args: Array<string | ArgumentStep>;
  /** `$ref`s being expanded on the way to this node (a repeat is a recursion). */
  readonly chain: string[];
  /** Nodes visited so far (bounded by MAX_NODES). */
  nodes: number;
  /** Looks up a local `$ref`, once per reference and walk. */
  readonly resolve: (ref: string) => unknown;
  /** Nodes visited inside inlined `$ref`s so far (bounded by MAX_INLINED). */
  inlined: number;
  /** Walks of pure `{ "$ref" }` nodes whose target holds no further reference, by reference. */
  readonly refWalks: Map<string, RefWalk>;
  /** `$ref` look-ups so far (a walk that made none inside a target can be reused). */
  lookups: number;
  /** Nodes carried as JSON text because the walk hit its depth or size bound. */
  limited: number;
  /** Deepest depth reached so far. */
  deepest: number;
  /** The string nodes offered in place of lifted ones (to tell them from declared strings). */
  readonly liftedNodes: Set<object>;
  /** True once an `anyOf` with several branches was offered (lifted paths may then overlap). */
  branched: boolean;
}

/** One walk of a `$ref` target, with paths relative to the reference, reusable at any later reference. */
export interface RefWalk {
  /** The offered node, or a `Lift` whose path is relative. */
  readonly out: unknown;
  readonly issues: readonly SchemaIssue[];
  readonly lifted: readonly LiftedArgument[];
  readonly nodes: number;
  /** How much deeper than the reference the walk went. */
  readonly height: number;
  /** Set once its issues are in the walk's list (they are reported once, where first inlined). */
  reported: boolean;
}

/** A fresh walk over `root`. */
export function newWalk(root: unknown): Walk {
  const refs = new Map<string, unknown>();
  const resolve = (ref: string): unknown => {
    if (refs.has(ref)) return refs.get(ref);
    const target = resolvePointer(root, ref);
    refs.set(ref, target);
    return target;
  };
  return {
    root,
    issues: [],
    lifted: [],
    path: '',
    args: [],
    chain: [],
    resolve,
    nodes: 0,
    inlined: 0,
    refWalks: new Map(),
    lookups: 0,
    limited: 0,
    deepest: 0,
    liftedNodes: new Set(),
    branched: false,
  };
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

/** The schema path of the current node, with an optional trailing segment. */
export function pathHere(w: Walk, extra?: string): string {
  if (extra === undefined) return w.path;
  return w.path === '' ? extra : `${w.path}.${extra}`;
}

/** Records a repair at the current node (or its `extra` keyword). */
export function repaired(w: Walk, rule: RuleId, detail: string, fix: string, extra?: string): void {
  w.issues.push({ rule, path: pathHere(w, extra), detail, action: 'repaired', fix });
}

/** A lift caused at the current node (or its `extra` keyword). */
export function liftHere(w: Walk, rule: RuleId, detail: string, extra?: string): Lift {
  return new Lift(rule, pathHere(w, extra), detail);
}

/** The current argument path as steps. */
export function argumentSteps(w: Walk): ArgumentStep[] {
  return w.args.map((s) => (typeof s === 'string' ? { kind: 'property', name: s } : EVERY_ELEMENT));
}

/** Records `lift` as carried as JSON text at the current argument, whose declared schema is `declared`. */
export function recordLift(w: Walk, lift: Lift, declared: unknown): void {
  const steps = argumentSteps(w);
  w.issues.push({ rule: lift.rule, path: lift.path, detail: lift.detail, action: 'lifted', fix: LIFTED });
  w.lifted.push({ steps, path: renderArgumentPath(steps), takes: takesOf(w.resolve, declared) });
}

const LIFTED = 'offered it as JSON text, decoded before the call is checked';

/** `relative` (a path inside a node) seen from the node at `base`. */
export function joinPath(base: string, relative: string): string {
  if (base === '') return relative;
  return relative === '' ? base : `${base}.${relative}`;
}
