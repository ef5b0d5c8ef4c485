import type { ToolDefinition } from '../core/tool.js';
import { globMatch } from '../runtime/glob-match.js';

/** The platform's own groups served when no pattern is given: files, memory and tasks (not the shell, not ask_user). */
const DEFAULT_GROUPS: ReadonlySet<string> = new Set(['files', 'memory', 'tasks']);

/** True for a tool another MCP server provides (toolseam is its client there). */
function fromMcpServer(tool: ToolDefinition): boolean {
  return tool.provider?.startsWith('mcp/') === true;
}

/** The fixed start of a glob, before its first wildcard. */
function fixedStart(pattern: string): string {
  const at = pattern.search(/[*?[]/);
  return at === -1 ? pattern : pattern.slice(0, at);
}

/**
 * Which tools `toolseam mcp-serve` serves. Without patterns: the file, memory and task tools and every
 * installed app's tools. With patterns (globs over real names): the tools they match, except that a tool
 * of another MCP server is served only when a pattern names it from its first character (`mcp/github/*`,
 * never a bare `*`), so no server's tools are passed on to other clients by accident.
 */
export function servedBy(patterns: readonly string[] | undefined): (tool: ToolDefinition) => boolean {
  if (patterns === undefined || patterns.length === 0) {
    return (tool) =>
      DEFAULT_GROUPS.has(tool.group?.key ?? '') || (tool.group?.own === false && !fromMcpServer(tool));
  }
  return (tool) =>
    patterns.some(
      (pattern) =>
        globMatch(pattern, tool.name) &&
        (!fromMcpServer(tool) || (fixedStart(pattern) !== '' && tool.name.startsWith(fixedStart(pattern)))),
    );
}
