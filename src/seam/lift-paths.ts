import { isPlainObject, type JsonSchema } from '../core/json.js';
import type { ArgumentStep, LiftedArgument } from './lifted-argument.js';
import type { JsonType } from './profile.js';
import type { Walk } from './schema-walk.js';

/**
 * The walk's lifted arguments, final: one entry per path (two `anyOf` branches may lift the same
 * one; their types are united), and `string` added to what a path takes when another branch offers
 * a real string there, so the decoder keeps text that is not JSON instead of refusing it.
 */
export function settleLifts(w: Walk, offered: JsonSchema): readonly LiftedArgument[] {
  if (w.lifted.length === 0 || !w.branched) return w.lifted;
  const byPath = new Map<string, LiftedArgument>();
  for (const lift of w.lifted) {
    const seen = byPath.get(lift.path);
    byPath.set(lift.path, seen === undefined ? lift : { ...seen, takes: unite(seen.takes, lift.takes) });
  }
  const settled: LiftedArgument[] = [];
  for (const lift of byPath.values()) {
    const declaredText = nodesAt(offered, lift.steps).some(
      (n) => n.type === 'string' && !w.liftedNodes.has(n),
    );
    settled.push(declaredText ? { ...lift, takes: unite(lift.takes, ['string']) } : lift);
  }
  return settled;
}

function unite(
  a: readonly JsonType[] | undefined,
  b: readonly JsonType[] | undefined,
): readonly JsonType[] | undefined {
  if (a === undefined || b === undefined) return undefined;
  return [...new Set([...a, ...b])];
}

/** The offered nodes an argument path reaches, through every `anyOf` branch on the way. */
function nodesAt(schema: unknown, steps: readonly ArgumentStep[], at = 0): Record<string, unknown>[] {
  if (!isPlainObject(schema)) return [];
  if (Array.isArray(schema.anyOf)) return schema.anyOf.flatMap((b) => nodesAt(b, steps, at));
  const step = steps[at];
  if (step === undefined) return [schema];
  if (step.kind === 'element') return nodesAt(schema.items, steps, at + 1);
  const props = schema.properties;
  return isPlainObject(props) && Object.hasOwn(props, step.name)
    ? nodesAt(props[step.name], steps, at + 1)
    : [];
}
