import { isPlainObject } from '../core/json.js';
import { joinArgumentPaths, type LiftedArgument, renderArgumentPath } from './lifted-argument.js';
import { MAX_DEPTH, MAX_INLINED, MAX_NODES } from './profile.js';
import {
  argumentSteps,
  joinPath,
  Lift,
  liftHere,
  lookUp,
  pathOf,
  type RefWalk,
  repaired,
  type Walk,
} from './schema-walk.js';

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
 * Walks a node that is only `{ "$ref": … }`. The target is walked in place; when it holds no further
 * reference the walk is kept, and every later reference to it costs its lifted arguments' paths
 * (generated API schemas point at the same definitions many times).
 */
export function walkRefOnly(w: Walk, ref: string, depth: number): unknown {
  const kept = w.refWalks.get(ref);
  if (
    kept !== undefined &&
    depth + kept.height <= MAX_DEPTH &&
    w.nodes + kept.nodes <= MAX_NODES &&
    w.inlined < MAX_INLINED
  ) {
    repaired(w, 'keyword_unsupported', '`$ref` is not portable', INLINE_FIX);
    w.nodes += kept.nodes;
    w.inlined += kept.nodes;
    placeLifted(w, kept.lifted);
    const out = kept.out;
    return out instanceof Lift ? new Lift(out.rule, joinPath(pathOf(w), out.path), out.detail) : out;
  }
  const target = resolveRef(w, ref);
  const problem = refProblem(w, ref, target);
  if (problem !== undefined) return problem;
  repaired(w, 'keyword_unsupported', '`$ref` is not portable', INLINE_FIX);
  return walkTarget(w, ref, target, depth);
}

/**
 * Walks a `$ref` target where the reference is: its defects are recorded here (a defect inside a
 * definition is one defect of the declared schema, reported where it is first inlined), its lifted
 * arguments are gathered relative to the reference, and the walk is kept for later references.
 */
function walkTarget(w: Walk, ref: string, target: unknown, depth: number): unknown {
  const base = pathOf(w);
  const argBase = w.argBase;
  const liftMark = w.lifted.length;
  const nodes = w.nodes;
  const lookups = w.lookups;
  const limited = w.limited;
  const deepest = w.deepest;
  w.argBase = w.argTop;
  w.deepest = depth;
  w.chain.push(ref);
  const out = w.walkNode(w, target === true ? {} : target, depth);
  w.chain.pop();
  const lifted = w.lifted.splice(liftMark);
  if (w.lookups === lookups && w.limited === limited) {
    const relative = out instanceof Lift ? new Lift(out.rule, relativeTo(base, out.path), out.detail) : out;
    const walked: RefWalk = { out: relative, lifted, nodes: w.nodes - nodes, height: w.deepest - depth };
    w.refWalks.set(ref, walked);
  }
  w.deepest = Math.max(deepest, w.deepest);
  w.argBase = argBase;
  placeLifted(w, lifted);
  return out;
}

/** `path`, a path inside the node at `base`, seen from that node. */
function relativeTo(base: string, path: string): string {
  if (base === '') return path;
  return path === base ? '' : path.slice(base.length + 1);
}

/** Lifted arguments gathered relative to the current argument, placed under it. */
function placeLifted(w: Walk, lifted: readonly LiftedArgument[]): void {
  if (lifted.length === 0) return;
  const base = argumentSteps(w);
  const rendered = renderArgumentPath(base);
  for (let i = 0; i < lifted.length; i += 1) {
    const lift = lifted[i] as LiftedArgument;
    const steps = base.concat(lift.steps);
    w.lifted.push({ steps, path: joinArgumentPaths(rendered, lift.path), takes: lift.takes });
  }
}
