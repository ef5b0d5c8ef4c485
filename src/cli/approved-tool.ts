import { InputError } from '../core/errors.js';
import type { ApprovalRecord } from '../core/session-records.js';
import type { Runtime } from '../runtime/runtime.js';

/**
 * Refuses, before an approval is answered, to approve a call the runtime that would run it cannot: its
 * tool is not among the tools this configuration loads (its server failed to start, the config no
 * longer names it, it is switched off). An approval written first would be a yes that runs nothing.
 */
export async function refuseUnrunnableApproval(
  runtime: Runtime,
  approval: ApprovalRecord,
  configWords: string,
): Promise<void> {
  const registry = runtime.options.registry;
  // A message goes on without an MCP server still starting; a yes cannot, so it waits as its call would.
  await registry.whenListed([approval.tool]);
  // A switch flipped since (here, on the page, in another terminal) counts as it will for the call.
  await runtime.syncToolSwitches();
  const served = await registry.serve();
  if (served.tools.some((t) => t.name === approval.tool)) return;
  const why = served.switchedOff.some((t) => t.name === approval.tool)
    ? registry.startedOff.includes(approval.tool)
      ? 'it is switched off there ("disabledTools")'
      : `it was switched off (\`toolseam tools --on ${approval.tool}\` switches it back on)`
    : failureWords(served.failures, approval.tool) || 'no server or app there provides it';
  throw new InputError(
    `${approval.tool} is not among the tools toolseam loads with ${configWords}: ${why}. Nothing was answered; approval ${approval.id} still waits (fix that, then answer it again).`,
  );
}

/** The load failures of the provider a tool name belongs to (`mcp/fs` for `mcp/fs/write_file`), as one clause. */
function failureWords(
  failures: readonly { readonly provider: string; readonly message: string }[],
  tool: string,
): string {
  return failures
    .filter((f) => tool.startsWith(`${f.provider}/`))
    .map((f) => `${f.provider} did not load (${f.message.replace(/\s+/g, ' ').replace(/\.$/, '')})`)
    .join('; ');
}
