import { isContextOverflow } from './context-overflow.js';
import { type RejectedTool, ToolSchemaRejected } from './errors.js';
import type { ModelAdapter, WireTool } from './model.js';
import { headOf } from './text-cut.js';

/** Maps a wire name back to the real tool and whether the person may switch it off. */
export type WireNameResolver = (wireName: string) => RejectedTool | undefined;

/** How much of the provider's words a rejection quotes (Gemini lists every violation of every tool). */
const SAID_LIMIT = 400;

/** The provider's words in `error`, in one line of at most `SAID_LIMIT` characters. */
function saidIn(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const line = message.replace(/\s+/g, ' ').trim();
  if (line === '') return undefined;
  return line.length <= SAID_LIMIT ? line : `${headOf(line, SAID_LIMIT - 1).trimEnd()}…`;
}

/**
 * The `ToolSchemaRejected` a provider error amounts to, or undefined when it names none of the tools this
 * request sent (then it is an ordinary provider error). A wire name the resolver does not know is kept as
 * it is and treated as one the person cannot switch off. What the provider said goes with it.
 */
export function toolSchemaRejection(
  adapter: Pick<ModelAdapter, 'provider' | 'toolsNamedInRejection' | 'toolsAttributedInRejection'>,
  error: unknown,
  sent: readonly WireTool[],
  resolve: WireNameResolver,
): ToolSchemaRejected | undefined {
  // a request too long for the window may quote a tool's name; it is never the tool's fault
  if (isContextOverflow(error)) return undefined;
  const named = adapter.toolsNamedInRejection(error, sent);
  if (named.length === 0) return undefined;
  const sure = new Set(adapter.toolsAttributedInRejection?.(error, sent) ?? []);
  const attributed = named.every((wire) => sure.has(wire));
  const tools = named.map((wire) => resolve(wire) ?? { name: wire, canTurnOff: false });
  return new ToolSchemaRejected(tools, adapter.provider, { cause: error, said: saidIn(error), attributed });
}
