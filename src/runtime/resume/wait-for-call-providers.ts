import type { SessionStore } from '../../core/session-store.js';
import type { ToolRegistry } from '../../tools/registry/tool-registry.js';

/**
 * Waits, as long as a call of their tools would, for the providers of a turn's unfinished calls (an MCP
 * server still starting): a message goes on without such a server, but a call already asked for cannot.
 */
export async function waitForCallProviders(
  store: SessionStore,
  registry: ToolRegistry,
  turnId: string,
): Promise<void> {
  const loose = await store.listToolCalls({ turnId, status: ['pending', 'approved', 'running'] });
  await registry.whenListed(loose.map((c) => c.tool));
}
