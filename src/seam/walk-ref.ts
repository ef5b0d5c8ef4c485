import { isPlainObject } from '../core/json.js';
import { type LiftedArgument, renderArgumentPath } from './lifted-argument.js';
import { MAX_DEPTH, MAX_INLINED, MAX_NODES } from './profile.js';
import type { SchemaIssue } from './schema-issue.js';
import {
  argumentSteps,
  joinPath,
  Lift,
  liftHere,
  lookUp,
  pathOf,
  type RefWalk,
  repaired,
  setPath,
  type Walk,
} from './schema-walk.js';
import { walkNode } from './walk-node.js';

/** What a local `$ref` points at, looked up once per walk. */
export function resolveRef(w: Walk, ref: string): unknown {
  w.lookups += 1;
  return lookUp(w, ref);
}

/**
 * Why `ref` cannot be inlined here (unresolvable, recursive, not a schema, over the inlining
 * budget), as a `Lift`; `undefined` when it can.
 */
export function refProblem(w: Walk, ref: string, target: unknown): Lift | undefined {
  if (target === undefined) {
    return liftHere(w, 'keyword_unsupported', `\`$ref\` "${ref}" does not resolve inside this schema`);
  }
  if (w.chain.includes(ref)) {
    return liftHere(w, 'keyword_unsupported', `\`$ref\` "${ref}" is recursive`);
  }
  if (target !== true && !isPlainObject(target)) {
    return liftHere(w, 'node_not_schema', `\`$ref\` "${ref}" does not point at a schema object`);
  }
  if (w.inlined >= MAX_INLINED) {
    const detail = `\`$ref\` "${ref}" is one reference too many to inline in this schema`;
    return liftHere(w, 'keyword_unsupported', detail);
  }
  return undefined;
}

const INLINE_FIX = 'inlined what it points at';

/**
 * Walks a node that is only `{ "$ref": … }`. The target is walked once with paths relative to the
 * reference; when it holds no further reference the walk is kept, and every later reference to it
 * costs its lifted arguments' paths (generated API schemas point at the same definitions many times).
 */
export function walkRefOnly(w: Walk, ref: string, depth: number): unknown {
  const kept = w.refWalks?.get(ref);
  if (
    kept !== undefined &&
    depth + kept.height <= MAX_DEPTH &&
    w.nodes + kept.nodes <= MAX_NODES &&
    w.inlined < MAX_INLINED
  ) {
    repaired(w, 'keyword_unsupported', '`$ref` is not portable', INLINE_FIX);
    w.nodes += kept.nodes;
    w.inlined += kept.nodes;
    return place(w, kept);
  }
  const target = resolveRef(w, ref);
  const problem = refProblem(w, ref, target);
  if (problem !== undefined) return problem;
  repaired(w, 'keyword_unsupported', '`$ref` is not portable', INLINE_FIX);
  const walked = walkRelative(w, ref, target, depth);
  return place(w, walked);
}

function walkRelative(w: Walk, ref: string, target: unknown, depth: number): RefWalk {
  const path = pathOf(w);
  const args = w.args.splice(0);
  const issueMark = w.issues.length;
  const liftMark = w.lifted.length;
  const nodes = w.nodes;
  const lookups = w.lookups;
  const limited = w.limited;
  const deepest = w.deepest;
  setPath(w, '');
  w.deepest = depth;
  w.chain.push(ref);
  const out = walkNode(w, target === true ? {} : target, depth);
  w.chain.pop();
  const walked: RefWalk = {
    out,
    issues: w.issues.splice(issueMark),
    lifted: w.lifted.splice(liftMark),
    nodes: w.nodes - nodes,
    height: w.deepest - depth,
    reported: false,
  };
  if (w.lookups === lookups && w.limited === limited) {
    if (w.refWalks === undefined) w.refWalks = new Map();
    w.refWalks.set(ref, walked);
  }
  w.deepest = Math.max(deepest, w.deepest);
  setPath(w, path);
  w.args.push(...args);
  return walked;
}

/** A relative walk seen from the current node: issues, lifted arguments and the offered node. */
function place(w: Walk, walked: RefWalk): unknown {
  // A defect inside a definition is one defect of the declared schema: reported where it is first inlined.
  if (!walked.reported) {
    const issues = walked.issues;
    const base = pathOf(w);
    for (let i = 0; i < issues.length; i += 1) w.issues.push(rebased(issues[i] as SchemaIssue, base));
    walked.reported = true;
  }
  if (walked.lifted.length > 0) {
    const base = argumentSteps(w);
    const lifted = walked.lifted;
    for (let i = 0; i < lifted.length; i += 1) {
      const lift = lifted[i] as LiftedArgument;
      const steps = base.concat(lift.steps);
      w.lifted.push({ steps, path: renderArgumentPath(steps), takes: lift.takes });
    }
  }
  const out = walked.out;
  return out instanceof Lift ? new Lift(out.rule, joinPath(pathOf(w), out.path), out.detail) : out;
}

/** `issue` with its path seen from `base`. */
function rebased(issue: SchemaIssue, base: string): SchemaIssue {
  const path = joinPath(base, issue.path);
  if (issue.fix === undefined) return { ...issue, path };
  return { rule: issue.rule, path, detail: issue.detail, action: issue.action, fix: issue.fix };
}
