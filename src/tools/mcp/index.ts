/** MCP servers as tool providers: the only part of toolseam that speaks MCP. */
export {
  DEFAULT_MCP_BACKOFF,
  DEFAULT_MCP_TIMEOUTS,
  type McpBackoff,
  type McpHttpServerConfig,
  type McpServerConfig,
  type McpStdioServerConfig,
  type McpTimeouts,
  type ParseMcpServersOptions,
  parseMcpServers,
  parseMcpTimeouts,
} from './mcp-config.js';
export {
  createMcpProvider,
  type McpProviderOptions,
  type McpToolProvider,
} from './mcp-provider.js';
export { type McpResultText, mcpResultText } from './mcp-result-text.js';
export { type McpFailureKind, McpServerError } from './mcp-server-error.js';
export type { McpInProcessServer, McpServerTarget } from './mcp-server-target.js';
export { MAX_TOOLS_PER_SERVER, mcpToolName } from './mcp-tool-listing.js';
