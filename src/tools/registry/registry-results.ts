import type { ToolResult } from '../../core/tool.js';

/** The answer to a call of a name no provider serves. */
export function unknownTool(name: string): ToolResult {
  return {
    content: `Error: there is no tool named ${JSON.stringify(name)}, so nothing was run. Use tool_search to find the right name.`,
    isError: true,
    refusedBy: 'unknown_tool',
  };
}

/** The answer to a call of a tool someone switched off. */
export function switchedOffResult(name: string): ToolResult {
  return {
    content: `Error: ${name} is switched off, so nothing was run. Carry on without it; the user can switch it back on.`,
    isError: true,
    refusedBy: 'withdrawn',
  };
}

/** The answer to a call whose turn was stopped while it ran. */
export function stoppedWhileRunning(name: string): ToolResult {
  return {
    content: `Error: ${name} was stopped while it ran, because the turn was stopped. Whether it did anything is unknown; check before calling it again.`,
    isError: true,
  };
}
