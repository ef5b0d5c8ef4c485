import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from './mcp-config.js';

/** A server the host runs in its own process, reached through a transport it hands over (e.g. an InMemoryTransport). */
export interface McpInProcessServer {
  readonly kind: 'in-process';
  readonly name: string;
  /** Called on every (re)start: returns the client end of a fresh transport. */
  readonly connect: () => Transport | Promise<Transport>;
}

/** Everything an MCP provider can reach. */
export type McpServerTarget = McpServerConfig | McpInProcessServer;
