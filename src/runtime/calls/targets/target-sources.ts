import type { TurnEnvironment } from '../../turn/turn-environment.js';
import type { CallTarget, TargetSource } from '../call-target.js';
import { metaTools } from './meta-targets.js';
import { runtimeTools } from './runtime-targets.js';
import { servedTools, unknownTarget } from './served-targets.js';

/** Where a call's name is looked up, first answer wins: the meta-tools, the runtime's own tools, the registry's. */
const SOURCES: readonly TargetSource[] = [metaTools, runtimeTools, servedTools];

/** The target of a real tool name (a stored call's); a name no tool has gets the unknown target. */
export function targetNamed(env: TurnEnvironment, name: string): CallTarget {
  return findTarget(env, name) ?? unknownTarget(name);
}

/** The target of a name as the model sent it: a real name, else the wire name a tool was offered under. */
export function resolveTarget(env: TurnEnvironment, sent: string): CallTarget {
  const direct = findTarget(env, sent);
  if (direct) return direct;
  // A tool the deny-list refuses is not on the surface: a call by its name, real or wire, is refused as denied.
  if (env.surface.denied.has(sent)) return unknownTarget(sent);
  const real = env.surface.wireToReal.get(sent) ?? env.surface.deniedWire.get(sent);
  return (real === undefined ? undefined : findTarget(env, real)) ?? unknownTarget(real ?? sent);
}

function findTarget(env: TurnEnvironment, name: string): CallTarget | undefined {
  for (const source of SOURCES) {
    const target = source.targetOf(name, env);
    if (target) return target;
  }
  return undefined;
}
