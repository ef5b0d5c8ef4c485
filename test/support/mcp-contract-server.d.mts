import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** Builds the contract server; `name` is what it calls itself. */
export declare function contractServer(name?: string): McpServer;
