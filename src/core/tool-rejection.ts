import { type RejectedTool, ToolSchemaRejected } from './errors.js';
import type { ModelAdapter, WireTool } from './model.js';

/** Maps a wire name back to the real tool and whether the person may switch it off. */
export type WireNameResolver = (wireName: string) => RejectedTool | undefined;

/**
 * The `ToolSchemaRejected` a provider error amounts to, or undefined when it names none of the tools this
 * request sent (then it is an ordinary provider error). A wire name the resolver does not know is kept as
 * it is and treated as one the person cannot switch off.
 */
export function toolSchemaRejection(
  adapter: Pick<ModelAdapter, 'provider' | 'toolsNamedInRejection'>,
  error: unknown,
  sent: readonly WireTool[],
  resolve: WireNameResolver,
): ToolSchemaRejected | undefined {
  const named = adapter.toolsNamedInRejection(error, sent);
  if (named.length === 0) return undefined;
  const tools = named.map((wire) => resolve(wire) ?? { name: wire, canTurnOff: false });
  return new ToolSchemaRejected(tools, adapter.provider, { cause: error });
}
