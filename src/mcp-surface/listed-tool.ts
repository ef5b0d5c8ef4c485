import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallSession } from '../runtime/calls/call-session.js';

/** A tool as the seam offers it to models. */
type OfferedTool = Awaited<ReturnType<CallSession['tools']>>[number];

/**
 * A tool as `tools/list` shows it: the wire name and offered schema the seam gives models (portable on
 * every provider a client may put in front of it), the description the Tools page shows, and hints from
 * the tool's own declaration.
 */
export function listedTool(tool: OfferedTool): Tool {
  const def = tool.definition;
  const readOnly = def.readOnly === true;
  return {
    name: tool.wireName,
    description: tool.description,
    inputSchema: { ...tool.parameters, type: 'object' } as Tool['inputSchema'],
    annotations: {
      readOnlyHint: readOnly,
      destructiveHint: !readOnly && def.risk === 'destructive',
    },
  };
}
