import type { JsonObject } from '../../../core/json.js';
import type { ToolDefinition, ToolResult } from '../../../core/tool.js';
import type { OfferedTool } from '../../../seam/index.js';
import { refuseMissingArguments } from '../../../tools/arguments/refusal-note.js';
import type { ToolRegistry } from '../../../tools/registry/tool-registry.js';
import { type CallTarget, type TargetCall, type TargetSource, toolContextOf } from '../call-target.js';
import { preflightRefusal, type Refusal } from '../refusals.js';

/** The registry's tools on the turn's surface, by real name. */
export const servedTools: TargetSource = {
  targetOf(name, env) {
    const offered = env.surface.byName.get(name);
    return offered === undefined ? undefined : servedTarget(name, offered);
  },
};

/** The target of a name no tool has: the unknown-tool gate refuses it (a resumed call goes to the registry, which says so). */
export function unknownTarget(name: string): CallTarget {
  return servedTarget(name, undefined);
}

function servedTarget(name: string, offered: OfferedTool | undefined): CallTarget {
  const definition = offered?.definition;
  return {
    name,
    definition,
    offered,
    screened: true,
    keepsTaskMode: false,
    asks: definition?.requiresApproval === true && definition.risk !== 'safe',
    withdrawn: (env) => (definition === undefined ? undefined : withdrawnReason(env.registry, definition)),
    preflight: (args, call) => preflightServed(name, offered, args, call),
    async invoke(args, call) {
      const result = await call.env.registry.invoke(name, args, toolContextOf(call));
      call.env.surface.retriever.markUsed(name);
      return result;
    },
  };
}

/** A refusal when the tool was switched off or its provider removed since the turn began. */
export function withdrawnReason(registry: ToolRegistry, def: ToolDefinition): Refusal | undefined {
  if (!registry.isEnabled(def.name)) {
    return { by: 'withdrawn', reason: 'it was switched off after this turn began' };
  }
  const provider = registry.providerOf(def.name);
  if (!provider || (def.provider !== undefined && provider.provider.name !== def.provider)) {
    return {
      by: 'withdrawn',
      reason: 'the app or server that provides it was removed or changed after this turn began',
    };
  }
  return undefined;
}

/**
 * Preflight: what the call's DECLARED schema requires, then what its tool declares it refuses. A
 * refusal here means nobody is asked; a check that throws or cannot decide refuses nothing.
 */
async function preflightServed(
  name: string,
  offered: OfferedTool | undefined,
  args: JsonObject,
  call: TargetCall,
): Promise<ToolResult | undefined> {
  const { env } = call;
  if (!offered) return undefined;
  const { definition } = offered;
  // Not the provider's own argument check: the declared schema's, for every provider (an MCP server cannot be asked first).
  const missing = refuseMissingArguments(name, args, definition.parameters, offered.parameters, {
    keySpellings: definition.keySpellings === true,
  });
  if (missing) return missing;
  let refused: ToolResult | undefined;
  try {
    refused = await env.registry.preflight(name, args, toolContextOf(call));
  } catch (error) {
    env.logger.log({
      level: 'warn',
      scope: 'runtime',
      message: `the pre-flight check of ${name} failed, so the call is put to the person: ${(error as Error).message}`,
    });
    return undefined;
  }
  return preflightRefusal(refused);
}
